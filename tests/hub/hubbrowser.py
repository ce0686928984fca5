"""What a person does on the hub in Chromium, shared by the hub's browser tests: log in through the hub's form, open
nbgrader's Assignment List, find one of its panels."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import fresh_context


def log_in(browser, hub, user: str, then: str):
    """A new browser context of `user`'s own, logged in through the hub's form; its page, at `then`."""
    page = fresh_context(browser).new_page()
    page.goto(f"{hub.url}/hub/login?next={then}")
    page.get_by_label("Username").fill(user)
    page.get_by_label("Password").fill(hub.passwords[user])
    page.get_by_role("button", name="Sign in").click()
    return page


def open_assignment_list(page) -> None:
    """nbgrader's Assignment List, from JupyterLab's Nbgrader menu."""
    page.get_by_role("menuitem", name="Nbgrader", exact=True).click()
    page.locator(".lm-Menu").get_by_text("Assignment List", exact=True).click()
    expect(page.locator("#released_assignments_list, #fetched_assignments_list")).not_to_have_count(0)


def panel(page, name: str):
    """One panel of the Assignment List, by its heading (the hub page names the panels)."""
    return page.locator(".panel", has=page.locator(".panel-heading", has_text=name))
