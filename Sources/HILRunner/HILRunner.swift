// HILRunner module.
