"""Settings, memory, speed, the memory budget, RAM and offload, the verdict and the command line of a row."""
