"""What a browser would post from an admin page: every field of its form, as shown."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

SKIPPED_TYPES = {"submit", "button", "file", "reset", "image"}


class FormReader(HTMLParser):
    """The fields of the page's main form (the admin's ``<form ... id="<model>_form">``)."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: list[tuple[str, str]] = []
        self.in_form = False
        self.select: str | None = None
        self.select_options: list[tuple[str, bool]] = []
        self.multiple = False
        self.textarea: str | None = None
        self.text = ""
        self.offered: dict[str, list[str]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = {key: value or "" for key, value in attrs}
        if tag == "form" and attr.get("id", "").endswith("_form"):
            self.in_form = True
        if not self.in_form or "disabled" in attr:
            return
        if tag == "input":
            self._input(attr)
        elif tag == "select" and attr.get("name"):
            self.select, self.select_options = attr["name"], []
            self.multiple = "multiple" in attr
        elif tag == "option" and self.select is not None:
            self.select_options.append((attr.get("value", ""), "selected" in attr))
        elif tag == "textarea" and attr.get("name"):
            self.textarea, self.text = attr["name"], ""

    def _input(self, attr: dict[str, str]) -> None:
        kind = attr.get("type", "text")
        if kind in SKIPPED_TYPES or not attr.get("name"):
            return
        if kind in ("checkbox", "radio") and "checked" not in attr:
            return
        self.fields.append((attr["name"], attr.get("value", "on" if kind == "checkbox" else "")))

    def handle_data(self, data: str) -> None:
        if self.textarea is not None:
            self.text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.in_form = False
        elif tag == "textarea" and self.textarea is not None:
            self.fields.append((self.textarea, self.text.removeprefix("\n")))
            self.textarea = None
        elif tag == "select" and self.select is not None:
            self.offered[self.select] = [value for value, _selected in self.select_options]
            chosen = [value for value, selected in self.select_options if selected]
            if not chosen and self.select_options and not self.multiple:
                chosen = [self.select_options[0][0]]  # a browser sends the first option
            self.fields.extend((self.select, value) for value in chosen)
            self.select = None


def form_data(html: str) -> dict[str, Any]:
    """The page's main form as ``Client.post`` takes it (a list for repeated names)."""
    reader = FormReader()
    reader.feed(html)
    data: dict[str, Any] = {}
    for name, value in reader.fields:
        if name in data:
            previous = data[name]
            data[name] = [*previous, value] if isinstance(previous, list) else [previous, value]
        else:
            data[name] = value
    return data


def offered(html: str) -> dict[str, list[str]]:
    """Each select of the page's main form with the values of its options, in order."""
    reader = FormReader()
    reader.feed(html)
    return reader.offered


def as_new(data: dict[str, Any], unique: dict[str, int], parent_keys: set[str]) -> dict[str, Any]:
    """A change page's data made into an add: inline rows become new rows of the new parent
    (their ``id`` and parent key dropped), unique text values change within their length."""
    new: dict[str, Any] = {}
    for name, value in data.items():
        field = name.rsplit("-", 1)[-1]
        if "-" in name and (field in ("id", "DELETE") or field in parent_keys):
            continue
        if field == "INITIAL_FORMS":
            value = "0"
        elif field in unique and isinstance(value, str) and "__prefix__" not in name:
            value = f"{value}x"[-unique[field] :]
        new[name] = value
    return new
