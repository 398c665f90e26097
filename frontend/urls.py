from __future__ import annotations

from django.urls import path

from frontend.views import league_page, shell

app_name = "frontend"

# The public league pages are the same page shell at shareable paths: the client reads the path
# and asks the public league API (an unknown slug or handle is its 404, shown in words; the page
# itself answers 404 too: frontend.views).
urlpatterns = [
    path("", shell, name="index"),
    path("leagues/", shell, name="leagues"),
    path("leagues/<slug:slug>/", league_page, name="league"),
    path("leagues/<slug:slug>/seasons/<int:season>/", league_page, name="league-season"),
    path("leagues/<slug:slug>/members/<path:handle>/", league_page, name="league-member"),
]
