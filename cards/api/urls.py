from __future__ import annotations

from rest_framework.routers import DefaultRouter

from cards.api.views import CardSetViewSet, CardViewSet

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("card-sets", CardSetViewSet, basename="card-set")
router.register("cards", CardViewSet, basename="card")

urlpatterns = router.urls
