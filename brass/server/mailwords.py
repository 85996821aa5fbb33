"""The words of the e-mail notices and of the unsubscribe page, in the client's five languages
(web/src/i18n: en, fa, pl, th, ko): a mail leaves the server, so its words are the server's.
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
        "digest_subject_one": "Brass: your turn in 1 game",
        "digest_intro_one": "It is your turn in 1 game:",
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
        "page_already": "You do not get {kind} any more: nothing to do.",
        "page_account": "Your account page",
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
        "page_already": "{kind} دیگر برای شما فرستاده نمی‌شود: کاری لازم نیست.",
        "page_account": "صفحهٔ حساب شما",
    },
    "pl": {
        "turn_subject": "Twój ruch w {game}",
        "turn_body": "W grze {game} jest twój ruch.",
        "time_left": "zostało {left}",
        "open": "Otwórz grę",
        "digest_subject": "Brass: twój ruch w grach ({count})",
        "digest_intro": "Twój ruch w grach ({count}):",
        "digest_subject_one": "Brass: twój ruch w jednej grze",
        "digest_intro_one": "Twój ruch w jednej grze:",
        "digest_line": "{game}: zostało {left}, przeciw {others}",
        "digest_line_untimed": "{game}: przeciw {others}",
        "desk": "Twoje gry",
        "day": "d", "hour": "godz.", "minute": "min",
        "why": "Dostajesz tę wiadomość, bo włączono ją na stronie twojego konta.",
        "stop_turn": "Nie wysyłaj już e-maili o ruchu",
        "stop_digest": "Nie wysyłaj już codziennego podsumowania",
        "kind_turn": "e-maile o twoim ruchu",
        "kind_digest": "codzienne podsumowanie",
        "page_title": "Wypisz się",
        "page_ask": "Przestać wysyłać {kind} na adres {email}?",
        "page_button": "Wypisz się",
        "page_done": "Gotowe: {kind} nie będą już wysyłane. Możesz je znów włączyć na "
                     "stronie swojego konta.",
        "page_bad": "Ten link do wypisania się jest nieprawidłowy.",
        "page_already": "Nie dostajesz już: {kind}. Nic więcej nie trzeba robić.",
        "page_account": "Strona twojego konta",
    },
    "th": {
        "turn_subject": "ถึงตาคุณใน {game}",
        "turn_body": "ถึงตาคุณเล่นใน {game} แล้ว",
        "time_left": "เหลือ {left}",
        "open": "เปิดเกม",
        "digest_subject": "Brass: ถึงตาคุณใน {count} เกม",
        "digest_intro": "ถึงตาคุณใน {count} เกม:",
        "digest_line": "{game}: เหลือ {left} กับ {others}",
        "digest_line_untimed": "{game}: กับ {others}",
        "desk": "เกมของคุณ",
        "day": "วัน", "hour": "ชม.", "minute": "นาที",
        "why": "คุณได้รับอีเมลนี้เพราะคุณขอไว้ในหน้าบัญชีของคุณ",
        "stop_turn": "หยุดส่งอีเมลแจ้งตาเล่น",
        "stop_digest": "หยุดส่งสรุปรายวัน",
        "kind_turn": "อีเมลแจ้งเมื่อถึงตาคุณ",
        "kind_digest": "สรุปรายวัน",
        "page_title": "ยกเลิกการรับอีเมล",
        "page_ask": "หยุดส่ง{kind}ไปที่ {email} หรือไม่?",
        "page_button": "ยกเลิกการรับ",
        "page_done": "เรียบร้อย: คุณจะไม่ได้รับ{kind}อีก เปิดใหม่ได้ในหน้าบัญชีของคุณ",
        "page_bad": "ลิงก์ยกเลิกนี้ไม่ถูกต้อง",
        "page_already": "คุณไม่ได้รับ{kind}แล้ว ไม่ต้องทำอะไรเพิ่ม",
        "page_account": "หน้าบัญชีของคุณ",
    },
    "ko": {
        "turn_subject": "{game}: 당신의 차례입니다",
        "turn_body": "{game}에서 당신의 차례입니다.",
        "time_left": "{left} 남음",
        "open": "게임 열기",
        "digest_subject": "Brass: 게임 {count}개에서 당신의 차례",
        "digest_intro": "게임 {count}개에서 당신의 차례입니다:",
        "digest_line": "{game}: {left} 남음, 상대 {others}",
        "digest_line_untimed": "{game}: 상대 {others}",
        "desk": "내 게임",
        "day": "일", "hour": "시간", "minute": "분",
        "why": "계정 페이지에서 요청하셨기 때문에 이 이메일을 받으셨습니다.",
        "stop_turn": "차례 알림 이메일 그만 받기",
        "stop_digest": "일일 요약 그만 받기",
        "kind_turn": "차례 알림 이메일",
        "kind_digest": "일일 요약",
        "page_title": "수신 거부",
        "page_ask": "{email}(으)로 {kind}을(를) 더 이상 보내지 않을까요?",
        "page_button": "수신 거부",
        "page_done": "완료: 더 이상 {kind}을(를) 받지 않습니다. 계정 페이지에서 다시 켤 수 "
                     "있습니다.",
        "page_bad": "이 수신 거부 링크는 유효하지 않습니다.",
        "page_already": "이미 {kind}을(를) 받지 않고 있습니다. 더 할 일은 없습니다.",
        "page_account": "내 계정 페이지",
    },
}



def words(lang: str) -> dict[str, str]:
    return WORDS.get(lang, WORDS["en"])


def digest_head(lang: str, count: int) -> tuple[str, str]:
    """The digest's subject and first line for `count` games: a language whose plural
    differs for one game has `_one` words.

    >>> digest_head("en", 1), digest_head("en", 2)[0]
    (('Brass: your turn in 1 game', 'It is your turn in 1 game:'), 'Brass: your turn in 2 games')
    """
    w = words(lang)
    one = "_one" if count == 1 and "digest_subject_one" in w else ""
    shown = number(count, lang)
    return (w[f"digest_subject{one}"].format(count=shown),
            w[f"digest_intro{one}"].format(count=shown))


def number(n: int, lang: str) -> str:
    """`n` in the digits the language's pages use (the client's Intl does the same): Persian
    digits in Persian, where a Latin "3" beside Persian words looks foreign.

    >>> number(1405, "fa"), number(1405, "en")
    ('۱۴۰۵', '1405')
    """
    text = str(n)
    return text.translate(_PERSIAN) if lang == "fa" else text


_PERSIAN = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")


def duration(seconds: float, lang: str) -> str:
    """A time left as a player reads it: "1 d 2 h", "3 h 5 min", "12 min"."""
    w = words(lang)
    minutes = max(0, int(seconds // 60))
    days, rest = divmod(minutes, 1440)
    hours, mins = divmod(rest, 60)
    if days:
        return f"{number(days, lang)} {w['day']} {number(hours, lang)} {w['hour']}"
    if hours:
        return f"{number(hours, lang)} {w['hour']} {number(mins, lang)} {w['minute']}"
    return f"{number(mins, lang)} {w['minute']}"
