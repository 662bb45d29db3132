// HILTesting module.
