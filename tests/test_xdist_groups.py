"""The suite relies on ``--dist loadgroup`` (pyproject's addopts): the modules marked ``xdist_group`` run on one
worker, so that what they share is rendered once and two Dask clusters, two browser servers or two SoftHSM2 token
folders never run at once. pytest 9.2 with pytest-xdist 3.8 silently stopped grouping (pytest-dev/pytest-xdist#1386);
this test fails when the grouping is lost, instead of the suite just getting slower and flakier."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.xdist_group("xdist_groups")


def test_a_grouped_test_carries_its_group_to_the_scheduler(request: pytest.FixtureRequest) -> None:
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not an xdist worker with --dist loadgroup (run with -n 2, as the README says)")
    # xdist's loadgroup scheduler reads the group from the test's node id ('…@grupo'): no suffix, no grouping
    assert request.node.nodeid.endswith("@xdist_groups"), request.node.nodeid
