"""The words of the e-mail notices and of the unsubscribe page, in the client's five languages
(web/src/i18n: en, fa, de, fr, es): a mail leaves the server, so its words are the server's.
`words(lang)` falls back to English for a language it does not have."""

from __future__ import annotations

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "turn_subject": "Your turn in {game}",
        "turn_body": "It is your turn in {game}.",
        "time_left": "{left} left",
        "open": "Open the game",
        "digest_subject": "Brass: your turn in {count} games",
        "digest_intro": "It is your turn in {count} games:",
        "digest_line": "{game}: {left} left against {others}",
        "digest_line_untimed": "{game}: against {others}",
        "desk": "Your games",
        "day": "d", "hour": "h", "minute": "min",
        "why": "You get this e-mail because you asked for it on your account page.",
        "stop_turn": "Stop the turn e-mails",
        "stop_digest": "Stop the daily digest",
        "kind_turn": "the e-mails when it is your turn",
        "kind_digest": "the daily digest",
        "page_title": "Unsubscribe",
        "page_ask": "Stop {kind} to {email}?",
        "page_button": "Unsubscribe",
        "page_done": "Done: you will not get {kind} any more. You can turn them on again on "
                     "your account page.",
        "page_bad": "This unsubscribe link is not valid.",
    },
    "fa": {
        "turn_subject": "نوبت شما در {game}",
        "turn_body": "در {game} نوبت شماست.",
        "time_left": "{left} مانده",
        "open": "باز کردن بازی",
        "digest_subject": "برس: نوبت شما در {count} بازی",
        "digest_intro": "در {count} بازی نوبت شماست:",
        "digest_line": "{game}: {left} مانده، در برابر {others}",
        "digest_line_untimed": "{game}: در برابر {others}",
        "desk": "بازی‌های شما",
        "day": "روز", "hour": "ساعت", "minute": "دقیقه",
        "why": "این ایمیل را می‌گیرید چون در صفحهٔ حساب خود آن را خواسته‌اید.",
        "stop_turn": "دیگر ایمیل نوبت نفرست",
        "stop_digest": "دیگر خلاصهٔ روزانه نفرست",
        "kind_turn": "ایمیل‌های نوبت",
        "kind_digest": "خلاصهٔ روزانه",
        "page_title": "لغو اشتراک",
        "page_ask": "{kind} دیگر به {email} فرستاده نشود؟",
        "page_button": "لغو اشتراک",
        "page_done": "انجام شد: دیگر {kind} را نمی‌گیرید. در صفحهٔ حساب خود می‌توانید آن را "
                     "دوباره روشن کنید.",
        "page_bad": "این پیوند لغو اشتراک معتبر نیست.",
    },
    "de": {
        "turn_subject": "Du bist am Zug in {game}",
        "turn_body": "In {game} bist du am Zug.",
        "time_left": "noch {left}",
        "open": "Zum Spiel",
        "digest_subject": "Brass: Du bist am Zug in {count} Spielen",
        "digest_intro": "In {count} Spielen bist du am Zug:",
        "digest_line": "{game}: noch {left} gegen {others}",
        "digest_line_untimed": "{game}: gegen {others}",
        "desk": "Deine Spiele",
        "day": "T", "hour": "Std", "minute": "Min",
        "why": "Du bekommst diese E-Mail, weil du sie auf deiner Kontoseite bestellt hast.",
        "stop_turn": "Keine Zug-E-Mails mehr",
        "stop_digest": "Keine tägliche Übersicht mehr",
        "kind_turn": "die E-Mails, wenn du am Zug bist",
        "kind_digest": "die tägliche Übersicht",
        "page_title": "Abbestellen",
        "page_ask": "{kind} an {email} abbestellen?",
        "page_button": "Abbestellen",
        "page_done": "Erledigt: Du bekommst {kind} nicht mehr. Auf deiner Kontoseite kannst "
                     "du sie wieder einschalten.",
        "page_bad": "Dieser Abbestell-Link ist nicht gültig.",
    },
    "fr": {
        "turn_subject": "À vous de jouer dans {game}",
        "turn_body": "C'est votre tour dans {game}.",
        "time_left": "il reste {left}",
        "open": "Ouvrir la partie",
        "digest_subject": "Brass : à vous de jouer dans {count} parties",
        "digest_intro": "C'est votre tour dans {count} parties :",
        "digest_line": "{game} : il reste {left}, contre {others}",
        "digest_line_untimed": "{game} : contre {others}",
        "desk": "Vos parties",
        "day": "j", "hour": "h", "minute": "min",
        "why": "Vous recevez cet e-mail parce que vous l'avez demandé sur la page de votre "
               "compte.",
        "stop_turn": "Ne plus recevoir les e-mails de tour",
        "stop_digest": "Ne plus recevoir le résumé quotidien",
        "kind_turn": "les e-mails quand c'est votre tour",
        "kind_digest": "le résumé quotidien",
        "page_title": "Se désabonner",
        "page_ask": "Ne plus envoyer {kind} à {email} ?",
        "page_button": "Se désabonner",
        "page_done": "C'est fait : vous ne recevrez plus {kind}. Vous pouvez les réactiver "
                     "sur la page de votre compte.",
        "page_bad": "Ce lien de désabonnement n'est pas valide.",
    },
    "es": {
        "turn_subject": "Te toca en {game}",
        "turn_body": "Es tu turno en {game}.",
        "time_left": "quedan {left}",
        "open": "Abrir la partida",
        "digest_subject": "Brass: te toca en {count} partidas",
        "digest_intro": "Es tu turno en {count} partidas:",
        "digest_line": "{game}: quedan {left} contra {others}",
        "digest_line_untimed": "{game}: contra {others}",
        "desk": "Tus partidas",
        "day": "d", "hour": "h", "minute": "min",
        "why": "Recibes este correo porque lo pediste en la página de tu cuenta.",
        "stop_turn": "Dejar de recibir los correos de turno",
        "stop_digest": "Dejar de recibir el resumen diario",
        "kind_turn": "los correos cuando es tu turno",
        "kind_digest": "el resumen diario",
        "page_title": "Darse de baja",
        "page_ask": "¿Dejar de enviar {kind} a {email}?",
        "page_button": "Darse de baja",
        "page_done": "Hecho: ya no recibirás {kind}. Puedes volver a activarlos en la página "
                     "de tu cuenta.",
        "page_bad": "Este enlace para darse de baja no es válido.",
    },
}


def words(lang: str) -> dict[str, str]:
    return WORDS.get(lang, WORDS["en"])


def duration(seconds: float, lang: str) -> str:
    """A time left as a player reads it: "1 d 2 h", "3 h 5 min", "12 min"."""
    w = words(lang)
    minutes = max(0, int(seconds // 60))
    days, rest = divmod(minutes, 1440)
    hours, mins = divmod(rest, 60)
    if days:
        return f"{days} {w['day']} {hours} {w['hour']}"
    if hours:
        return f"{hours} {w['hour']} {mins} {w['minute']}"
    return f"{mins} {w['minute']}"
