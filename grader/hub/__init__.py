"""A JupyterHub for one course on this machine (`make hub`): real Unix accounts, a student environment
with the learner part of the package only, the instructors' environment, the course directory and the
strict exchange (grader.exchange), all under one root-owned folder (/srv/softmax-hub by default).

Run as root: it creates users and changes owners. jupyterhub-setup/jupyterhub_config.py reads the settings it writes.
"""
