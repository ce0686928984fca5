"""Browser tests: JupyterLab as `make lab` starts it, under Debian's chromium."""
