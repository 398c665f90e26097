from __future__ import annotations

from django.urls import path

from frontend.views import shell

app_name = "frontend"

# The public league pages are the same page shell at shareable paths: the client reads the path
# and asks the public league API. A league's own pages (404 for what it does not have) are
# routed before these from the root URLs: leagues.web.pages.
urlpatterns = [
    path("", shell, name="index"),
    path("leagues/", shell, name="leagues"),
]
