from django.apps import AppConfig


class BattlesConfig(AppConfig):
    name = "battles"
    verbose_name = "Battles and the event store"

    def ready(self) -> None:
        # Every append to a battle's stream is announced to the open pages after commit,
        # and lets the bot take its turn (battles.live, battles.bots).
        from battles.live import battle_appended
        from penance_site.eventstore.store import react_to_appends

        react_to_appends("battle", battle_appended)
