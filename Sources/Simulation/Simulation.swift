// Simulation module.
