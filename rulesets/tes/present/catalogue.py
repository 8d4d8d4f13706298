"""What the party can read before it chooses: each town feature's effect and each shop card's full text (shown
with the town's actions), and the pack's items, enemies and the overland cards the party has seen
(`/content items`, `/content enemies`, `/content cards`).  Words only: nothing here changes the campaign."""
from __future__ import annotations

from engine.commands import Invocation, Opt, command
from engine.core import RuleError
from engine.reply import Embed, Reply, clip, split_text
from engine.text import count, slug

LIST_MAX = 10  # entries shown in full for one name


# ------------------------------------------------------------------ words --
def item_words(item) -> str:
    """An item card in full: name, rarity, subtype, battle forms, its text and its overtax."""
    kind = f"{item.rarity} {item.subtype}"
    forms = f", {'/'.join(item.forms)} form" if item.forms else ""
    words = f"{item.name} ({kind}{forms}): {item.text}".rstrip()
    if item.keyword and item.keyword != "overtax":
        words += f" [{item.keyword}]"
    if item.overtax_text:
        words += f" Overtax: {item.overtax_text}"
    return words


def enemy_words(enemy) -> str:
    """An enemy's chip in words: level, type, Health, defense, Combat, range, targets, priority, skills."""
    targets = "all targets in range" if enemy.targets is None else count(enemy.targets, "target")
    bits = [f"level {enemy.level} {enemy.type}", f"Health {enemy.health}", f"defense {enemy.defense}",
            f"Combat {enemy.combat}", f"range {enemy.range}", targets, f"priority: {enemy.priority}",
            f"movement {enemy.movement}"]
    words = f"{enemy.name} ({', '.join(bits)})."
    for sk in enemy.skills:
        value = f" {sk.value}" if sk.value is not None else ""
        words += f" {sk.name}{value} ({sk.timing}): {sk.text}"
    if enemy.description:
        words += f" — {enemy.description}"
    return words


def card_words(card) -> str:
    """An overland card: its name, label, story and every choice with its outcome and XP."""
    lines = [f"{card.name} ({card.label}, {card.kind}): {card.story}"]
    lines += [f"  {ch.number}. {ch.title} ({ch.outcome}, {ch.xp} XP): {ch.text}" for ch in card.choices]
    return "\n".join(lines)


INN = ("heals you to your maximum HP, removes every fatigue and status die from your cooldown track and recovers "
       "your exhausted and drained skill dice")
ALCHEMY = "refreshes 1 of your expended potions"
BOARD = "draws 2 side quests; you may accept 1 of them for the party"


def town_guide(state, pack) -> str:
    """What each feature of the town being visited does, the shop's cards in full and the trainer's lines."""
    from rulesets.tes.content.overland import FEATURE_NAMES

    s = state.days
    if s is None or s.town is None:
        return ""
    prov = pack.provinces.get(s.province)
    if prov is None:
        return ""
    visit = s.town
    town = prov.caravan if visit.caravan else prov.towns.get(visit.town)
    if town is None:
        return ""
    lines = [f"What each feature of {town.name} does:"]
    for f in town.features:
        name = FEATURE_NAMES.get(f, f)
        if f == "shop":
            takes = getattr(town, "shop_takes", 1)
            cards = [pack.items[i] for i in visit.shop if i in pack.items]
            lines.append(f"• {name}: take {count(takes, 'card')} of those on offer per action"
                         + (":" if cards else " (none left)."))
            lines += [f"   – {item_words(it)}" for it in cards]
        elif f == "trainer":
            offered = [pack.lines[t].name for t in visit.trainer if t in pack.lines]
            lines.append(f"• {name}: add a skill line to an open circular slot of your mat (or take back the "
                         "Magicka stat): " + (", ".join(offered) or "no skill line left") + ".")
        elif f == "inn":
            lines.append(f"• {name}: {INN}.")
        elif f == "alchemy":
            lines.append(f"• {name}: {ALCHEMY}.")
        elif f == "square" and town.square is not None:
            sq = town.square
            group = (" A group action: every adventurer puts 1 of their own town actions into it."
                     if sq.group else " Once per visit for each adventurer.")
            lines.append(f"• {name} — {sq.name}: {sq.text}{group}")
        elif f == "kiosk":
            lines.append(f"• {name}: {_kiosk(state, pack)}")
        elif f == "board":
            lines.append(f"• {name}: {BOARD}.")
    return "\n".join(lines)


def _kiosk(state, pack) -> str:
    camp = getattr(pack, "campaign", None)
    j = state.journal
    g = camp.guilds.get(j.guild) if camp is not None and j is not None and j.guild else None
    if g is None:
        return "your guild's own town action (the party has no guild yet)."
    return f"the {g.name}'s {g.kiosk.name}: {g.kiosk.text}"


def seen_cards(state, pack) -> list:
    """The overland cards the party has seen this session: drawn and discarded, cycled, and the current one."""
    s = state.days
    if s is None:
        return []
    ids: list[str] = []
    for deck in s.decks.values():
        ids += list(deck.discard) + list(deck.bottom)
    if s.effect_card:
        ids.append(s.effect_card)
    if s.encounter is not None and s.encounter.card:
        ids.append(s.encounter.card)
    out, seen = [], set()
    for cid in ids:
        card = pack.overland_cards.get(cid)
        if card is not None and cid not in seen:
            seen.add(cid)
            out.append(card)
    return sorted(out, key=lambda c: (c.kind, c.code, c.number))


# --------------------------------------------------------------- commands --
async def _pack_of(inv: Invocation):
    from rulesets.tes.content import DEFAULT_PACK, load_pack

    state = await inv.service.campaign(inv.channel_id)
    return state, (load_pack(state.pack, version=state.pack_version) if state else load_pack(DEFAULT_PACK))


def _matches(records, name: str) -> list:
    key = slug(name)
    exact = [r for r in records if key in (r.id, slug(r.name))]
    return exact or [r for r in records if key and (key in r.id or key in slug(r.name))]


def _private(text: str) -> Reply:
    first, *more = split_text(text)
    return Reply(content=first, followups=[Reply(content=p, ephemeral=True) for p in more], ephemeral=True)


@command("content items", "The pack's item cards; with name: a card's full text.",
         Opt("name", str, "An item's name (or part of it) for its full text"))
async def content_items(inv: Invocation, name=None) -> Reply:
    _state, pack = await _pack_of(inv)
    items = list(pack.items.values())
    if name:
        found = _matches(items, name)
        if not found:
            raise RuleError(f"No item of this pack is called `{name}`. `/content items` lists them all.")
        return _private("\n".join(f"• {item_words(it)}" for it in found[:LIST_MAX]))
    e = Embed(title=f"Items — {pack.name} ({len(items)})",
              description="`/content items name:` gives a card's full text.")
    groups: dict[str, list[str]] = {}
    for it in items:
        groups.setdefault(f"{it.rarity.title()} {it.subtype}", []).append(it.name)
    for title, names in sorted(groups.items())[:25]:
        e.add(title, clip(", ".join(sorted(names)), 1000))
    return Reply(embeds=[e], ephemeral=True)


@command("content enemies", "The pack's enemies; with name: an enemy's chip in full.",
         Opt("name", str, "An enemy's name (or part of it) for its chip in full"))
async def content_enemies(inv: Invocation, name=None) -> Reply:
    _state, pack = await _pack_of(inv)
    enemies = list(pack.enemies.values())
    if name:
        found = _matches(enemies, name)
        if not found:
            raise RuleError(f"No enemy of this pack is called `{name}`. `/content enemies` lists them all.")
        return _private("\n".join(f"• {enemy_words(en)}" for en in found[:LIST_MAX]))
    e = Embed(title=f"Enemies — {pack.name} ({len(enemies)})",
              description="`/content enemies name:` gives an enemy's chip in full.")
    groups: dict[str, list[str]] = {}
    for en in enemies:
        prov = next((p for p in pack.provinces.values() if p.code == en.province or p.id == en.province), None)
        where = prov.name if prov is not None else (en.province or "Any province")
        groups.setdefault(f"{where}: {en.type}", []).append(f"{en.name} (L{en.level})")
    for title, names in sorted(groups.items())[:25]:
        e.add(title, clip(", ".join(sorted(names)), 1000))
    return Reply(embeds=[e], ephemeral=True)


@command("content cards", "The overland cards the party has seen this session, with their choices.")
async def content_cards(inv: Invocation) -> Reply:
    state, pack = await _pack_of(inv)
    if state is None or state.days is None:
        raise RuleError("No session is running, so the party has seen no overland card yet. The party leader "
                        "starts one with `/day start`.")
    cards = seen_cards(state, pack)
    if not cards:
        return Reply(content="The party has seen no overland card yet this session.", ephemeral=True)
    return _private(f"Overland cards seen this session ({len(cards)}):\n" + "\n".join(card_words(c) for c in cards))


__all__ = ["card_words", "enemy_words", "item_words", "seen_cards", "town_guide"]
