"""The pages, one module per area; each exposes ``routes: list[Route]`` and :mod:`autos.web.app` mounts every
module of this package (in name order). web-core: ``auth`` (sign-in), ``processos`` (list, page, review),
``admin`` (accounts, audit log), ``verificacao``; web-forms: ``forms``, ``importing``; web-docs: ``documents``."""
