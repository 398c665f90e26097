from django.urls import path

from tournaments.api import cardstats, chat, matches, views

urlpatterns = [
    path("tournaments/", views.TournamentCreateView.as_view(), name="tournament-create"),
    path("tournaments/join/", views.TournamentJoinView.as_view(), name="tournament-join"),
    path("tournaments/<int:tournament_id>/", views.TournamentDetailView.as_view()),
    path("tournaments/<int:tournament_id>/bots/", views.TournamentBotsView.as_view()),
    path("tournaments/<int:tournament_id>/start/", views.TournamentStartView.as_view()),
    path("tournaments/<int:tournament_id>/leave/", views.TournamentLeaveView.as_view()),
    path("tournaments/<int:tournament_id>/advice/", views.TournamentAdviceView.as_view()),
    path("tournaments/<int:tournament_id>/reclaim/", views.TournamentReclaimView.as_view()),
    path("tournaments/<int:tournament_id>/kick/", views.TournamentKickView.as_view()),
    path("tournaments/<int:tournament_id>/cancel/", views.TournamentCancelView.as_view()),
    path("tournaments/<int:tournament_id>/seat/", views.SeatSettingsView.as_view()),
    path("tournaments/<int:tournament_id>/matches/", views.TournamentMatchesView.as_view()),
    path("tournaments/<int:tournament_id>/verify/", views.TournamentVerifyView.as_view()),
    path("tournaments/<int:tournament_id>/replay/", views.TournamentReplayView.as_view()),
    path("tournaments/<int:tournament_id>/chat/", chat.TournamentChatView.as_view()),
    path("tournaments/<int:tournament_id>/chat/mute/", chat.TournamentChatMuteView.as_view()),
    path(
        "tournaments/<int:tournament_id>/chat/spectators/", chat.TournamentChatGuestView.as_view()
    ),
    *(
        path(f"tournaments/<int:tournament_id>/{route}/", view.as_view())
        for route, view in views.DECK_ACTIONS.items()
    ),
    path("cards/<path:key>/stats/", cardstats.CardStatsView.as_view(), name="card-stats"),
    path("card-sets/<str:name>/stats/", cardstats.SetStatsView.as_view(), name="set-stats"),
    path("matches/<int:match_id>/", matches.MatchDetailView.as_view(), name="match-detail"),
    path("matches/<int:match_id>/answer/", matches.MatchAnswerView.as_view(), name="match-answer"),
    path("matches/<int:match_id>/events/", matches.MatchEventsView.as_view(), name="match-events"),
]
