"""The runtime: Pyodide in a sandboxed frame's workers, driven by the page through one client.

The Python here is the runtime's server side (server.py): the runner frame's document and where
Pyodide's files are. The rest is JavaScript and the build's scripts; README.md is the map.
"""
