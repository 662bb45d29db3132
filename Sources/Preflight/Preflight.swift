// Preflight module.
