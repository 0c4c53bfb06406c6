from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "campaigns"
    verbose_name = "Campaigns"

    def ready(self) -> None:
        # Campaigns follow battle streams through the event store, so that battles never
        # import campaigns (docs/ARCHITECTURE.md): the reaction writes a finished mission
        # battle's outbox row in the battle's own append transaction (R-PLT-5).
        from penance_site.eventstore.store import react_to_appends

        from .services import battle_appended

        react_to_appends("battle", battle_appended)
        # Register the app's Celery tasks in every process (web, worker, shell): services
        # send them by name from Celery's registry (services.OUTCOME_TASK).
        from . import tasks  # noqa: F401
