"""Django admin for curating the catalogue.

Every save here marks the row ``curated``. Then ``load_catalogue`` does not overwrite it. The
model's ``clean`` refuses bad values."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q, QuerySet
from django.forms import (
    BaseInlineFormSet,
    CharField,
    ChoiceField,
    IntegerField,
    ModelForm,
    Textarea,
)
from django.http import HttpRequest, HttpResponse
from django.utils.html import format_html, format_html_join
from django.utils.module_loading import import_string
from django.utils.text import capfirst, slugify
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from simple_history.admin import SimpleHistoryAdmin

from cards.charts import figures_chart
from cards.effectcodes import code_choices
from cards.history import updated_with_history
from cards.models import Card, CardSet, CardSnapshot
from cards.selectors import additional_set_problems, card_set_list, copy_warning
from cards.setfiles import sets_export
from infra.adminkit import NoBulkDelete, ReadOnlyHistory

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class CardForm(ModelForm):
    """A card's fields, its effect code chosen from the engine's codes.

    Each code is listed with its parameters (``cards.effectcodes``). So nobody can type a code
    unknown to the engine."""

    effect_code = ChoiceField(
        label=capfirst(_("effect code")),  # as the admin writes the model's own labels
        choices=code_choices,
        required=False,
        help_text=_(
            "The engine's code for the effect, with its parameters (* required) and their "
            "ranges; the parameters go in effect params as a JSON object."
        ),
    )

    class Meta:
        model = Card
        fields = "__all__"  # noqa: DJ007 (the admin and the inline say which are shown)


class CardInline(admin.TabularInline):
    model = Card
    form = CardForm
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
        "effect",  # the effect's text and the translations: a set's rows are whole cards
        "translations",
        "confidence",
        "curated",
    )
    readonly_fields = ("curated",)
    formfield_overrides = {models.JSONField: {"widget": Textarea(attrs={"rows": 2, "cols": 30})}}


def _stored_keys(card_ids: list[int]) -> list[tuple[str, str]]:
    """The cards' stored (set, name), before a save changes them."""
    rows = Card.objects.filter(pk__in=card_ids).values_list("card_set__name", "name")
    return list(rows)


def _tell_running(request: HttpRequest, keys: list[tuple[str, str]]) -> None:
    """Say how many running tournaments keep their frozen version of these cards."""
    users = import_string(settings.CARD_USERS)
    for set_name, name in keys:
        count = users(set_name=set_name, name=name)
        if count:
            messages.info(
                request,
                f"{set_name}/{name}: {count} running tournament(s) keep the previous version "
                "(they play the card data frozen at their start).",
            )


class Simulated(Protocol):
    """What the card page reads of a ``Simulation``."""

    status: str
    matches: int
    done: int
    win_rate_with: float | None
    win_interval_with: list[float] | None
    win_rate_without: float | None
    win_interval_without: list[float] | None


class Listed(Protocol):
    """A card of the admin list, with totals from ``CardAdmin.get_queryset``."""

    stat_offered: int
    stat_decks: int
    stat_deck_wins: int
    stat_pick_rate: float | None


def _simulated(simulation: Simulated | None) -> str:
    """The latest balance simulation's progress, or result."""
    if simulation is None:
        return ""
    if simulation.status != "done":
        return format_html(
            "<p>Simulation {}: {} of {} pairs played.</p>",
            simulation.status,
            simulation.done,
            simulation.matches,
        )
    return format_html(
        "<p>Simulation of {} pairs: won {} with it ({}), {} without ({}).</p>",
        simulation.matches,
        _percent(simulation.win_rate_with),
        _interval(simulation.win_interval_with),
        _percent(simulation.win_rate_without),
        _interval(simulation.win_interval_without),
    )


REFRESH_SECONDS = 3  # a card page reloads this often while its simulation runs


def _stats_key(card: Card) -> str:
    """The key the card's figures are kept under: its stored set and name.

    It is never a form's unsaved values. A refused rename or move is drawn again with the figures
    of the stored card."""
    (set_name, name), *_others = _stored_keys([card.pk])
    return f"{set_name}/{name}"


def _simulating(card: Card) -> bool:
    """Whether the card's latest simulation is queued or running."""
    view = import_string(settings.CARD_STATS)(key=_stats_key(card), limit=1)
    simulation = view.simulation
    return simulation is not None and simulation.status in ("queued", "running")


def _percent(rate: float | None) -> str:
    return "—" if rate is None else f"{rate * 100:.1f} %"


def _interval(bounds: list[float] | None) -> str:
    return "—" if bounds is None else f"{_percent(bounds[0])} to {_percent(bounds[1])}"


@runtime_checkable
class FiguredSet(Protocol):
    """A card set with the figures ``card_set_list`` annotates."""

    pk: int | None
    name: str
    expected_copies: int
    designs: int
    copy_total: int
    unknown_copies: int
    retired_copies: int


def _warning(card_set: FiguredSet) -> str | None:
    return copy_warning(
        expected_copies=card_set.expected_copies,
        copy_total=card_set.copy_total,
        unknown_copies=card_set.unknown_copies,
        retired_copies=card_set.retired_copies,
    )


class RetireActions(NoBulkDelete, SimpleHistoryAdmin):
    """Retire instead of delete.

    A retired row stays: past tournaments' history keeps it. New tournaments leave it out
    (``cards.snapshots.snapshot_take``, the playable sets). Every change, these included, shows on
    its History page. It lists the old and new values."""

    actions = ["retire", "restore"]

    @admin.action(description=_("Retire: keep for history, leave out of new tournaments"))
    def retire(self, request: HttpRequest, queryset: QuerySet[Card | CardSet]) -> None:
        self._set_retired(request, queryset, retired=True)

    @admin.action(description=_("Restore: offer to new tournaments again"))
    def restore(self, request: HttpRequest, queryset: QuerySet[Card | CardSet]) -> None:
        self._set_retired(request, queryset, retired=False)

    def _set_retired(
        self, request: HttpRequest, queryset: QuerySet[Card | CardSet], *, retired: bool
    ) -> None:
        count = updated_with_history(
            queryset,
            reason="Retired in admin" if retired else "Restored in admin",
            user=request.user,
            retired=retired,
            curated=True,
        )
        verb = "retired" if retired else "restored"
        self.message_user(request, f"{count} {queryset.model._meta.verbose_name}(s) {verb}.")


@admin.register(CardSet)
class CardSetAdmin(RetireActions):
    actions = [*RetireActions.actions, "export"]
    list_display = (
        *("name", "box", "kind", "designs", "copy_total", "expected_copies", "copies_ok"),
        *("playable", "retired"),
    )
    list_filter = ("box", "kind", "retired", "curated")
    search_fields = ("name",)
    readonly_fields = ("copy_check",)
    fields = (
        *("name", "box", "kind", "expected_copies", "starter_decks", "copy_check"),
        *("note", "position", "retired", "curated"),
    )
    inlines = (CardInline,)

    @admin.action(description=_("Export as a catalogue file (JSON, to edit and import)"))
    def export(self, request: HttpRequest, queryset: QuerySet[CardSet]) -> HttpResponse:
        text = json.dumps(sets_export(queryset), ensure_ascii=False, indent=2) + "\n"
        response = HttpResponse(text, content_type="application/json; charset=utf-8")
        name = "sets" if queryset.count() > 1 else slugify(queryset.get().name) or "set"
        response["Content-Disposition"] = f'attachment; filename="{name}.json"'
        return response

    def get_queryset(self, request: HttpRequest) -> QuerySet[CardSet]:
        return card_set_list()

    @admin.display(description=_("designs"))
    def designs(self, card_set: FiguredSet) -> int:
        return int(card_set.designs)

    @admin.display(description=_("copies in play"))
    def copy_total(self, card_set: FiguredSet) -> int:
        return int(card_set.copy_total)

    @admin.display(description=_("copies add up"), boolean=True)
    def copies_ok(self, card_set: FiguredSet) -> bool:
        return _warning(card_set) is None

    @admin.display(description=_("playable"))
    def playable(self, card_set: CardSet) -> str:
        """Whether new tournaments may choose it, else what it lacks.

        Only additional sets can lack anything."""
        missing = self._problems().get(card_set.name)
        if missing is None:
            return "—"
        if not missing:
            return str(_("yes"))
        return _("no: %(missing)s") % {"missing": "; ".join(missing)}

    def _problems(self) -> dict[str, list[str]]:
        return additional_set_problems()

    @admin.display(description=_("copy total"))
    def copy_check(self, card_set: FiguredSet) -> str:
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
        extra_context: dict[str, object] | None = None,
    ) -> HttpResponse:
        card_set = self.get_object(request, object_id)
        if request.method == "GET" and isinstance(card_set, FiguredSet):
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
        changed = [card_form for card_form in formset.forms if card_form.has_changed()]
        for card_form in changed:
            card_form.instance.curated = True
        keys = _stored_keys([card_form.instance.pk for card_form in changed])
        super().save_formset(request, form, formset, change)
        _tell_running(request, keys)


SAMPLE = 30  # decks: a sample the list's filters take as telling


class FiguresFilter(admin.SimpleListFilter):
    """Cards by a figure from stored play.

    ``CardAdmin.get_queryset`` annotates the figures. Each choice is a condition on them."""

    conditions: dict[str, tuple[StrOrPromise, Q]] = {}

    def lookups(
        self, request: HttpRequest, model_admin: admin.ModelAdmin[Card]
    ) -> list[tuple[str, StrOrPromise]]:
        return [(value, label) for value, (label, _condition) in self.conditions.items()]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Card]) -> QuerySet[Card]:
        chosen = self.conditions.get(self.value() or "")
        return queryset if chosen is None else queryset.filter(chosen[1])


class PlayedFilter(FiguresFilter):
    """Cards by their sample: how many played decks held them."""

    title = _("decks played")
    parameter_name = "played"
    conditions = {
        "none": (_("none"), Q(stat_decks=0)),
        "few": (_("1 to 29"), Q(stat_decks__range=(1, SAMPLE - 1))),
        "enough": (_("30 or more"), Q(stat_decks__gte=SAMPLE)),
    }


class WinRateFilter(FiguresFilter):
    """Cards whose decks won notably often or seldom, in a telling sample."""

    title = _("win rate (30+ decks)")
    parameter_name = "win"
    conditions = {
        "low": (_("under 45 %"), Q(stat_decks__gte=SAMPLE, stat_win_rate__lt=0.45)),
        "even": (_("45 to 55 %"), Q(stat_decks__gte=SAMPLE, stat_win_rate__range=(0.45, 0.55))),
        "high": (_("over 55 %"), Q(stat_decks__gte=SAMPLE, stat_win_rate__gt=0.55)),
    }


PAIRS = IntegerField(min_value=1, max_value=5000)


class SimulateForm(ActionForm):
    """The pairs box beside the actions, as free text.

    Django's action form answers any invalid field with "No action selected.". So *Simulate* checks
    the box and says what's wrong."""

    matches = CharField(
        required=False, initial="200", label=_("Pairs"), help_text=_("Simulate: pairs (1 to 5000).")
    )


@admin.register(Card)
class CardAdmin(RetireActions):
    # Whole at 1400 px beside the admin's sidebar and filters (tests/web/test_card_admin.py):
    # box, keyword, timing, effect code, confidence and curated are filters and search instead.
    list_display = (
        *("name", "card_set", "level", "power_shown", "copies"),
        *("pick_rate", "win_rate", "retired"),
    )
    list_filter = (
        *("card_set__box", "card_set", "level", "keyword", "timing", "confidence"),
        *("retired", "curated", PlayedFilter, WinRateFilter),
    )
    search_fields = ("name", "effect", "keyword", "card_set__name", "effect_code")
    list_select_related = ("card_set",)
    actions = ["retire", "restore", "release_to_catalogue", "simulate"]
    action_form = SimulateForm
    form = CardForm

    class Media:
        css = {"all": ("cards/card-list.css",)}

    readonly_fields = ("play_figures",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Card]:
        """The cards, with their totals from stored play, in the list's one query.

        The figures live with the tournaments, read via ``settings.CARD_LIST_FIGURES``."""
        return import_string(settings.CARD_LIST_FIGURES)(super().get_queryset(request))

    @admin.display(description=_("pick rate"), ordering="stat_pick_rate")
    def pick_rate(self, card: Listed) -> str:
        return f"{_percent(card.stat_pick_rate)} of {card.stat_offered}"

    @admin.display(description=_("win rate, interval at 95 %"), ordering="stat_win_rate")
    def win_rate(self, card: Listed) -> str:
        """The rate, its 95 % interval and its sample size.

        They are shown as the stats API serves them: ``settings.CARD_WIN_SHOWN`` computes both."""
        shown = import_string(settings.CARD_WIN_SHOWN)(
            deck_wins=card.stat_deck_wins, decks=card.stat_decks
        )
        if shown.win_interval is None:
            return str(_("— of 0 decks"))
        low, high = shown.win_interval
        return _("%(rate)s (%(low)s to %(high)s) of %(decks)s decks") % {
            "rate": _percent(shown.win_rate),
            **{"low": _percent(low), "high": _percent(high), "decks": shown.decks},
        }

    @admin.action(description=_("Simulate: bot matches with and without each card (on a worker)"))
    def simulate(self, request: HttpRequest, queryset: QuerySet[Card]) -> None:
        """Queue a balance simulation per card; answer at once.

        ``settings.CARD_SIMULATE`` does it in one transaction and sends the tasks after it. The card
        page and Card balances list show progress. They refresh themselves while it runs."""
        try:
            matches = PAIRS.clean(request.POST.get("matches") or 200)
        except ValidationError as error:
            problem = " ".join(error.messages)
            refusal = _("Nothing simulated: pairs %(problem)s") % {"problem": problem}
            self.message_user(request, refusal, messages.ERROR)
            return
        names = queryset.order_by("pk").values_list("card_set__name", "name")
        refused = import_string(settings.CARD_SIMULATE)(
            keys=[f"{set_name}/{name}" for set_name, name in names], matches=matches
        )
        queued = sum(message is None for message in refused.values())
        self.message_user(request, f"Queued {queued} simulation(s) of {matches} pairs.")
        problems = [f"{key}: {message}" for key, message in refused.items() if message]
        if problems:
            self.message_user(request, "; ".join(problems), messages.WARNING)

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, object] | None = None,
    ) -> HttpResponse:
        response = super().change_view(request, object_id, form_url, extra_context)
        card = self.get_object(request, object_id)
        if request.method == "GET" and card is not None and _simulating(card):
            response.headers["Refresh"] = str(REFRESH_SECONDS)  # the progress, as it runs
        return response

    @admin.display(description=_("Figures from stored play"))
    def play_figures(self, card: Card) -> str:
        """The card's figures, in total and per kind of player, with a chart.

        They are win rate (with interval and sample size) and pick rate. Reveals, average power and
        effects follow. The figures live with the tournaments; ``settings.CARD_STATS`` reads
        them."""
        if card.pk is None:
            return "—"
        view = import_string(settings.CARD_STATS)(key=_stats_key(card))
        total = view.total
        simulated = _simulated(view.simulation)
        if not total.decks and not total.offered:
            return format_html("<p>No recorded play yet.</p>{}", simulated)
        return format_html(
            "<p>Win rate {} over {} decks (95 % interval {}); picked {} of {} offered; "
            "{} reveals, average power {}; effect fired {} times.</p>{}{}",
            _percent(total.win_rate),
            total.decks,
            _interval(total.win_interval),
            total.picked,
            total.offered,
            total.reveals,
            total.average_power if total.average_power is not None else "—",
            total.effects,
            figures_chart(view.by_player),
            simulated,
        )

    @admin.display(description=_("box"), ordering="card_set__box")
    def box(self, card: Card) -> str:
        return card.card_set.get_box_display()

    @admin.display(description=_("power"), ordering="power")
    def power_shown(self, card: Card) -> str:
        return "round" if card.power_is_round else str(card.power)

    def save_model(self, request: HttpRequest, obj: Card, form: ModelForm, change: bool) -> None:
        obj.curated = True
        keys = _stored_keys([obj.pk]) if change else []
        super().save_model(request, obj, form, change)
        _tell_running(request, keys)

    @admin.action(description=_("Release to the catalogue file (next load_catalogue overwrites)"))
    def release_to_catalogue(self, request: HttpRequest, queryset: QuerySet[Card]) -> None:
        count = updated_with_history(
            queryset, reason="Released to the catalogue file", user=request.user, curated=False
        )
        message = ngettext(
            "%(count)s card will follow the catalogue file again.",
            "%(count)s cards will follow the catalogue file again.",
            count,
        )
        self.message_user(request, message % {"count": count})


@admin.register(CardSnapshot)
class CardSnapshotAdmin(ReadOnlyHistory):
    """The card data tournaments froze at their start, read only.

    Nothing edits a snapshot."""

    list_display = ("__str__", "created_at", "designs")
    readonly_fields = ("digest", "created_at", "all_sets", "cards")
    fields = readonly_fields

    @admin.display(description=_("designs"))
    def designs(self, snapshot: CardSnapshot) -> int:
        return len(snapshot.entries)

    @admin.display(description=_("cards"))
    def cards(self, snapshot: CardSnapshot) -> str:
        """Every frozen design as a table: set, name, level, power, timing, effect code."""
        columns = ("set", "name", "level", "power", "timing", "effect_code")
        rows = format_html_join(
            "",
            "<tr>" + "<td>{}</td>" * len(columns) + "</tr>",
            (
                [entry.get(name) if entry.get(name) is not None else "" for name in columns]
                for entry in snapshot.entries
            ),
        )
        head = format_html_join("", "<th>{}</th>", ((name,) for name in columns))
        return format_html("<table><thead><tr>{}</tr></thead><tbody>{}</tbody></table>", head, rows)
