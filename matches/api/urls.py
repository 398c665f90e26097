from django.urls import path

from matches.api import views

urlpatterns = [
    path("matches/<int:match_id>/", views.MatchDetailView.as_view(), name="match-detail"),
    path("matches/<int:match_id>/answer/", views.MatchAnswerView.as_view(), name="match-answer"),
    path("matches/<int:match_id>/events/", views.MatchEventsView.as_view(), name="match-events"),
]
