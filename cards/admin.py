"""Django admin for curating the catalogue. Every save here marks the row ``curated`` so that
``load_catalogue`` does not overwrite it; the model's ``clean`` refuses bad values."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db import models
from django.db.models import QuerySet
from django.forms import BaseInlineFormSet, ModelForm, Textarea
from django.http import HttpRequest, HttpResponse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from cards.api.cache import catalogue_changed
from cards.models import Card, CardSet
from cards.selectors import card_set_list, copy_warning


class CardInline(admin.TabularInline):
    model = Card
    extra = 0
    show_change_link = True
    fields = (
        "name",
        "level",
        "power",
        "power_is_round",
        "copies",
        "copies_per_starter_deck",
        "keyword",
        "timing",
        "effect_code",
        # With the code, so that a row's code and params are checked and fixed together (an error
        # about a field missing from the inline form would be a server error, not a message).
        "effect_params",
        "curated",
    )
    readonly_fields = ("curated",)
    formfield_overrides = {models.JSONField: {"widget": Textarea(attrs={"rows": 2, "cols": 30})}}


def _warning(card_set: Any) -> str | None:
    return copy_warning(
        card_set=card_set,
        copy_total=card_set.copy_total,
        unknown_copies=card_set.unknown_copies,
    )


@admin.register(CardSet)
class CardSetAdmin(admin.ModelAdmin):
    list_display = ("name", "box", "kind", "designs", "copy_total", "expected_copies", "copies_ok")
    list_filter = ("box", "kind", "curated")
    search_fields = ("name",)
    readonly_fields = ("copy_check",)
    fields = (
        *("name", "box", "kind", "expected_copies", "starter_decks", "copy_check"),
        *("note", "position", "curated"),
    )
    inlines = (CardInline,)

    def get_queryset(self, request: HttpRequest) -> QuerySet[CardSet]:
        return card_set_list()

    @admin.display(description=_("designs"))
    def designs(self, card_set: Any) -> int:
        return int(card_set.designs)

    @admin.display(description=_("copies"))
    def copy_total(self, card_set: Any) -> int:
        return int(card_set.copy_total)

    @admin.display(description=_("copies add up"), boolean=True)
    def copies_ok(self, card_set: Any) -> bool:
        return _warning(card_set) is None

    @admin.display(description=_("copy total"))
    def copy_check(self, card_set: Any) -> str:
        if card_set.pk is None:
            return "—"
        problem = _warning(card_set)
        if problem is None:
            counts = {"total": card_set.copy_total, "expected": card_set.expected_copies}
            return _("%(total)s of %(expected)s copies: complete.") % counts
        return format_html('<strong style="color:#ba2121">{} {}</strong>', _("Warning:"), problem)

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        card_set = self.get_object(request, object_id)
        if request.method == "GET" and card_set is not None:
            problem = _warning(card_set)
            if problem is not None:
                messages.warning(request, f"{card_set.name}: {problem}")
        return super().change_view(request, object_id, form_url, extra_context)

    def save_model(self, request: HttpRequest, obj: CardSet, form: ModelForm, change: bool) -> None:
        if form.has_changed():
            obj.curated = True
        super().save_model(request, obj, form, change)

    def save_formset(
        self,
        request: HttpRequest,
        form: ModelForm,
        formset: BaseInlineFormSet,
        change: bool,
    ) -> None:
        for card_form in formset.forms:
            if card_form.has_changed():
                card_form.instance.curated = True
        super().save_formset(request, form, formset, change)


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = (
        *("name", "card_set", "box", "level", "power_shown", "copies", "keyword"),
        *("timing", "effect_code", "confidence", "curated"),
    )
    list_filter = (
        *("card_set__box", "card_set", "level", "keyword", "timing", "confidence", "curated"),
    )
    search_fields = ("name", "effect", "keyword", "card_set__name", "effect_code")
    list_select_related = ("card_set",)
    actions = ("release_to_catalogue",)

    @admin.display(description=_("box"), ordering="card_set__box")
    def box(self, card: Card) -> str:
        return card.card_set.get_box_display()

    @admin.display(description=_("power"), ordering="power")
    def power_shown(self, card: Card) -> str:
        return "round" if card.power_is_round else str(card.power)

    def save_model(self, request: HttpRequest, obj: Card, form: ModelForm, change: bool) -> None:
        obj.curated = True
        super().save_model(request, obj, form, change)

    @admin.action(description=_("Release to the catalogue file (next load_catalogue overwrites)"))
    def release_to_catalogue(self, request: HttpRequest, queryset: QuerySet[Card]) -> None:
        count = queryset.update(curated=False)
        catalogue_changed()  # an update sends no save signal
        message = ngettext(
            "%(count)s card will follow the catalogue file again.",
            "%(count)s cards will follow the catalogue file again.",
            count,
        )
        self.message_user(request, message % {"count": count})
