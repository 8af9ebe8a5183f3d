"""The lazily imported public names of `models` stay what they say they are."""

import pkgutil

import models


def test_no_public_name_is_also_a_module():
    # A submodule imported under a public name would replace that name on the package.
    modules = {m.name for m in pkgutil.iter_modules(models.__path__)}
    assert not modules & set(models.__all__)


def test_every_public_name_resolves():
    for name in models.__all__:
        value = getattr(models, name)
        assert not isinstance(value, type(models)), name
