"""JupyterHub for a remote table on one machine (`make table`): its configuration
(`jupyterhub_config.py`, built by `settings.py`), the authenticator that gives every person their own
credential (`authenticator.py`) and the one rule for user names both sides share (`names.py`)."""
