"""The JupyterLab extension's message catalogs (data only: nothing to import here).

JupyterLab's server finds them through the entry point `jupyterlab.locale` `mcp_lab = "mcp_lab.catalogs"`
(pyproject.toml): it reads `locale/<lang>/LC_MESSAGES/mcp_lab.json` beside this file and serves it as the
translation domain `mcp_lab`, the one every screen of the extension (labextension/src/i18n.ts) reads, so
the lab's screens follow JupyterLab's language. `<lang>/LC_MESSAGES/mcp_lab.po` is the translators' source;
labextension/scripts/catalog.py extracts the msgids from the extension's source and compiles the .po.
"""
