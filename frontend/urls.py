from __future__ import annotations

from django.urls import path
from django.views.generic import TemplateView

app_name = "frontend"

shell = TemplateView.as_view(template_name="frontend/index.html")

# The public league pages are the same page shell at shareable paths: the client reads the path
# and asks the public league API (an unknown slug or handle is its 404, shown in words).
urlpatterns = [
    path("", shell, name="index"),
    path("leagues/", shell, name="leagues"),
    path("leagues/<slug:slug>/", shell, name="league"),
    path("leagues/<slug:slug>/seasons/<int:season>/", shell, name="league-season"),
    path("leagues/<slug:slug>/members/<path:handle>/", shell, name="league-member"),
]
