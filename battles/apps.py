from django.apps import AppConfig


class BattlesConfig(AppConfig):
    name = "battles"
    verbose_name = "Battles and the event store"

    def ready(self) -> None:
        # Every append to a battle's stream is announced to the open pages after commit,
        # and lets the bot take its turn (battles.live, battles.bots).
        from battles.live import BROKER, battle_appended
        from penance_site.eventstore.store import react_to_appends
        from penance_site.lifecycle import on_shutdown

        react_to_appends("battle", battle_appended)
        # A live stream never ends by itself: a shutting-down worker ends them first, so
        # the pages reconnect to a process that is still up (penance_site/serving.py).
        on_shutdown(BROKER.close_all)
        # Register the app's Celery tasks in every process (web, worker, shell): the bot
        # sends its task by name from Celery's registry (battles.bots.BOT_TASK).
        from battles import tasks  # noqa: F401
