"""The web application (``autos servir``): server-rendered pages in Portuguese over the processos and the register.

Thin like the command line: each handler parses the request, checks the permission, calls one library function
of :mod:`autos.app` and renders a template of ``templates/web/``. Nothing below this package imports Starlette.
"""
