"""Without chromium the browser tests skip on a laptop but fail in CI."""

import pytest

from tests.browser.conftest import require_chromium


@pytest.mark.parametrize("ci", [None, "true"])
def test_chromium_present_is_used(tmp_path, monkeypatch, ci):
    monkeypatch.delenv("CI", raising=False) if ci is None else monkeypatch.setenv("CI", ci)
    chromium = tmp_path / "chromium"
    chromium.touch()
    assert require_chromium(chromium) == chromium


def test_chromium_missing_skips_locally_and_fails_in_ci(tmp_path, monkeypatch):
    missing = tmp_path / "chromium"
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install chromium"):
        require_chromium(missing)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="is missing"):
        require_chromium(missing)
