"""The web application's configuration (read in :mod:`autos.app.server`, which the command line also reads)."""

from __future__ import annotations

from autos.app.server import CONFIG_ENV, WebConfig, config_from_environment, default_config, load_config

__all__ = ["CONFIG_ENV", "WebConfig", "config_from_environment", "default_config", "load_config"]
