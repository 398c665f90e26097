from django.urls import path

from tournaments.leagues.api import management, views

S = "leagues/<slug:slug>/"
urlpatterns = [
    path("leagues/", views.LeagueListView.as_view(), name="league-list"),
    path("leagues/tournaments/", views.HostTournamentView.as_view(), name="league-host"),
    path("leagues/tournaments/join/", views.MemberJoinView.as_view(), name="league-join"),
    path(S, views.LeagueDetailView.as_view(), name="league-detail"),
    path(S + "standings/", views.StandingsView.as_view(), name="league-standings"),
    path(S + "seasons/", views.SeasonCreateView.as_view()),
    path(S + "seasons/<int:season_id>/tournaments/", views.SeasonTournamentView.as_view()),
    path(S + "seasons/<int:season_id>/lines/", views.SeasonLinesView.as_view()),
    path(S + "tournaments/<int:tournament_id>/results/", views.TournamentResultsView.as_view()),
    path(S + "members/", views.MemberCreateView.as_view()),
    path(S + "members/claim/", views.MemberClaimView.as_view()),
    path(S + "members/<str:handle>/", views.MemberDetailView.as_view()),
    path(S + "members/<str:handle>/token/", management.MemberTokenView.as_view()),
    path(S + "seasons/<int:season_id>/", management.SeasonDetailView.as_view()),
    path(S + "seasons/<int:season_id>/close/", management.SeasonCloseView.as_view()),
    path(S + "seasons/<int:season_id>/reopen/", management.SeasonReopenView.as_view()),
    path(S + "webhooks/", views.WebhookCreateView.as_view()),
    path(S + "webhooks/<int:endpoint_id>/", management.WebhookDetailView.as_view()),
    path(S + "webhooks/<int:endpoint_id>/secret/", management.WebhookSecretView.as_view()),
    path(S + "webhooks/<int:endpoint_id>/ping/", management.WebhookPingView.as_view()),
    path(S + "webhooks/<int:endpoint_id>/deliveries/", management.DeliveryListView.as_view()),
    path(
        S + "webhooks/<int:endpoint_id>/deliveries/<int:delivery_id>/retry/",
        management.DeliveryRetryView.as_view(),
    ),
    path(S + "corrections/", views.CorrectionListView.as_view()),
    path(S + "embed-sites/", views.EmbedSiteListView.as_view()),
    path(S + "embed-sites/<int:site_id>/", views.EmbedSiteDetailView.as_view()),
    path(S + "calendar/", management.CalendarView.as_view()),
    path(S + "tournaments/<int:tournament_id>/schedule/", management.ScheduleView.as_view()),
    path("leagues/tournaments/<int:tournament_id>/checkin/", management.CheckInView.as_view()),
]
