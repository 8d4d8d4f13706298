"""A second bot process for the concurrency and crash tests.

    python tests/helpers/worker.py crash  DB SEED     # apply random actions forever, "ACK <seq> <campaign>" each
    python tests/helpers/worker.py hammer DB CHANNEL N BASE   # N settings changes racing another process

Every line is flushed at once, so a parent that kills this process knows
exactly which actions were acknowledged (committed) before the kill.
"""
from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.core import Action, RuleError  # noqa: E402
import rulesets  # noqa: E402

rulesets.load_all()
from engine.service import CampaignService  # noqa: E402
from rulesets.tes.rules import whose_move  # noqa: E402
from engine.store import Store  # noqa: E402

LEAD = "1000"
USERS = [str(1001 + i) for i in range(6)]
CHANNELS = [f"crash-{i}" for i in range(4)]
RACES = ["dark-elf", "argonian", "nord", "breton", "khajiit", "imperial"]
LINES = ["bow", "destruction-staff", "one-hand-and-shield", "two-handed"]


def say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def random_action(rng: random.Random, channel: str, state) -> Action:
    if state is None:
        return Action("campaign.new", LEAD, {"name": f"Crash {channel}", "channel_id": channel,
                                             "guild_id": "1", "seed": rng.randrange(1, 10**9)})
    others = [m for m in state.members if m != state.leader]
    # battles too: their turns roll dice and their victories hand out class rewards
    rewards = {o: ids for o, ids in (state.settings.get("class_rewards") or {}).items() if ids}
    if rewards and rng.random() < 0.5:
        owner = rng.choice(sorted(rewards))
        return Action("battle.class", owner, {"klass": rng.choice(rewards[owner])})
    if state.battle and rng.random() < 0.7:
        turn = whose_move(state)
        if turn:
            return Action("battle.endturn", turn[0])
    if not state.battle and state.adventurers and rng.random() < 0.08:
        return Action("battle.start", state.leader, {"encounter": "jailbreak"})
    roll = rng.random()
    if roll < 0.25:
        return Action("campaign.settings", state.leader, {"reminder_hours": rng.randrange(0, 300)})
    if roll < 0.45:
        return Action("campaign.join", rng.choice(USERS))
    if roll < 0.55 and others:
        return Action("campaign.leave", rng.choice(others))
    if roll < 0.75:
        who = rng.choice(state.members)
        return Action("adventurer.create", who, {"name": f"Hero {rng.randrange(10**6)}",
                                                  "race": rng.choice(RACES), "line": rng.choice(LINES)})
    if roll < 0.82 and state.adventurers:
        return Action("adventurer.retire", rng.choice(list(state.adventurers)), {"confirm": True})
    if roll < 0.88:
        return Action("dice.force", state.leader, {"values": [rng.randrange(1, 7) for _ in range(3)]})
    if roll < 0.96:
        return Action("undo", state.leader, {"confirm": True})
    if roll < 0.98:
        return Action("campaign.leader", state.leader, {"player": rng.choice(state.members)})
    return Action("campaign.end", state.leader, {"confirm": True})


async def crash(db: str, seed: int) -> None:
    rng = random.Random(seed)
    store = await Store.open(db)
    service = CampaignService(store)
    say("READY")
    while True:
        channel = rng.choice(CHANNELS)
        state = await service.campaign(channel)
        act = random_action(rng, channel, state)
        try:
            out = await service.execute(channel, act)
        except RuleError:
            continue
        say(f"ACK {out.seq} {out.campaign_id}")


async def hammer(db: str, channel: str, n: int, base: int) -> None:
    store = await Store.open(db)
    service = CampaignService(store)
    say("READY")
    sys.stdin.readline()  # wait for GO, so both processes start together
    applied, refused, messages = [], 0, set()
    for i in range(n):
        value = base + i
        try:
            await service.execute(channel, Action("campaign.settings", LEAD, {"reminder_hours": value}))
            applied.append(value)
        except RuleError as exc:
            refused += 1
            messages.add(exc.message)
        await asyncio.sleep(0)
    await store.close()
    say("RESULT " + json.dumps({"applied": applied, "refused": refused, "messages": sorted(messages)}))


def main() -> None:
    mode = sys.argv[1]
    if mode == "crash":
        asyncio.run(crash(sys.argv[2], int(sys.argv[3])))
    elif mode == "hammer":
        asyncio.run(hammer(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])))
    else:
        raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
