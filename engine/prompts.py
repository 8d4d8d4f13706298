"""Prompts: the one shape of "the table waits for a player to answer".

A ruleset offers ``open_prompt(state)`` -> :class:`Prompt` | ``None`` (``Ruleset.open_prompt``): the
question it waits on now (a rolled engage to resolve, a prevention question, a
lockpick check ...).  Everything else is generic:

* showing it: the presenter draws its options as buttons and a menu;
* answering it: a button, a menu or the ruleset's command all run the prompt's
  ``action`` through the service, with the prompt's ``id`` in the arguments
  (``PROMPT_ARG``); the ruleset checks, under the channel's lock, that the id is
  still the open prompt's, so a late or repeated click changes nothing;
* timing it out: ``deadline`` is part of the state, written by the action that
  opened the prompt; the service writes the deadlines table from it in the same
  transaction as the state (``deadline_row``), and when it is due the bot runs
  ``timeout_action`` with the id.

Ids are short, safe words (they travel in button ids): letters, digits, ``.``, ``_`` and ``-``.

Hidden information: a ``private`` prompt's options are its owner's secret (a hand of cards to choose from).
A presenter never shows them in a post the others can read: the public post only says whose question it is
and offers a button that opens the options for the owner alone (ephemerally, ``visible_options``), and only
the owner may answer it (not even the party leader, who would see the options by answering).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from engine.core import Action, RuleError

#: the argument that names the prompt an action answers
PROMPT_ARG = "prompt"
_SAFE = re.compile(r"^[A-Za-z0-9_.-]{1,48}$")


@dataclass(frozen=True)
class Option:
    """One answer a prompt offers: ``value`` goes into the answer, ``label`` and ``detail`` are shown."""

    value: str
    label: str
    detail: str = ""


@dataclass(frozen=True)
class Prompt:
    """A question waiting for one player.

    ``kind`` names the question's family (the ruleset's word: "roll", "prevent", "lockpick"...), ``owner``
    the player who answers (the party leader may answer for them), ``options`` the choices a menu lists,
    ``default`` what happens without an answer (and the one-click answer), ``pick`` how many options a menu
    answer may name (0: none, the prompt has buttons only), ``deadline`` when the default applies by itself
    (None: it waits), ``action`` the action an answer runs and ``timeout_action`` the one a deadline runs.
    """

    id: str
    kind: str
    owner: str
    action: str
    options: tuple[Option, ...] = ()
    default: str = ""
    pick: int = 0
    ordered: bool = False  # the order of the picks matters (a menu answer may need a second step)
    deadline: float | None = None
    timeout_action: str | None = None
    data: dict[str, Any] = field(default_factory=dict, compare=False)
    private: bool = False  # the options are the owner's secret: shown to the owner alone, answered by them alone
    # several players answer this one question, each for themselves (a town visit, each player's rest):
    # ``owners`` lists who still has to (``owner`` is the first of them: reminders and deadlines follow it)
    owners: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not _SAFE.match(self.id):
            raise ValueError(f"prompt id {self.id!r} must be 1-48 letters, digits, '.', '_' or '-'")

    @property
    def deadline_key(self) -> str:
        return f"{self.kind}:{self.id}"

    def deadline_row(self) -> tuple[str, str, str, float] | None:
        """(key, kind, owner, due) of the deadline to keep, or None when the prompt waits without one."""
        if self.deadline is None or not self.timeout_action:
            return None
        return self.deadline_key, self.kind, self.owner, float(self.deadline)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "owner": self.owner, "action": self.action,
                "options": [[o.value, o.label, o.detail] for o in self.options], "default": self.default,
                "pick": self.pick, "ordered": self.ordered, "deadline": self.deadline,
                "timeout_action": self.timeout_action, "data": dict(self.data)} | (
                    {"private": True} if self.private else {}) | ({"owners": list(self.owners)} if self.owners else {})

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Prompt":
        return cls(id=str(d["id"]), kind=str(d["kind"]), owner=str(d["owner"]), action=str(d["action"]),
                   options=tuple(Option(*o) for o in d.get("options") or ()), default=str(d.get("default") or ""),
                   pick=int(d.get("pick") or 0), ordered=bool(d.get("ordered")), deadline=d.get("deadline"),
                   timeout_action=d.get("timeout_action"), data=dict(d.get("data") or {}),
                   private=bool(d.get("private")), owners=tuple(str(o) for o in d.get("owners") or ()))

    def answers(self, user_id: str) -> bool:
        """Whether ``user_id`` is one of the players this prompt waits for."""
        return str(user_id) == self.owner or str(user_id) in self.owners


def visible_options(prompt: Prompt, viewer: str) -> tuple[Option, ...]:
    """The options ``viewer`` may see: all of them, unless the prompt is private and ``viewer`` is not its
    owner (then none: a post the others read shows only whose question it is)."""
    if prompt.private and str(viewer) != prompt.owner:
        return ()
    return prompt.options


def open_prompt(state: Any) -> Prompt | None:
    """The state's open prompt (None for a state that has none, or no prompts at all)."""
    if state is None or getattr(state, "ended", False):
        return None
    own = getattr(state, "open_prompt", None)  # a state may answer for itself
    if callable(own):
        return own()
    from engine.rulesets import named

    ask = named(getattr(state, "ruleset", None)).open_prompt
    return ask(state) if ask is not None else None


def deadline_sync(old: Any, new: Any) -> tuple[str, str, str, float] | None | bool:
    """What the commit does to the campaign's unfired deadlines.

    False: leave them (nothing about prompts changed); None: drop them (no prompt waits with a
    deadline); (key, kind, owner, due): keep only that one, adding it if it is new.
    """
    before, after = open_prompt(old), open_prompt(new)
    row = after.deadline_row() if after is not None else None
    if before == after and (before is None or before.deadline_row() == row) and old is not None:
        return False
    if after is not None and row is None and after.timeout_action and before is not None and before.id == after.id:
        return False  # a prompt saved before deadlines were recorded keeps whatever was scheduled for it
    return row


def answer(prompt_id: str, actor: str, args: Callable[[Prompt], dict[str, Any]], *, stale: str,
           not_yours: Callable[[Prompt, Any], str]) -> Callable[[Any], Action]:
    """An answer to the prompt ``prompt_id`` by ``actor``, for ``CampaignService.execute``.

    Built from the state under the channel's lock: refused (``stale``) unless that prompt is still the open
    one; refused (``not_yours(prompt, state)``) unless the actor is its owner or the party leader (a private
    prompt: its owner alone); then the prompt's action with ``args(prompt)``, for its owner.
    """
    def build(state: Any) -> Action:
        p = open_prompt(state)
        if p is None or p.id != prompt_id:
            raise RuleError(stale)
        if (not p.answers(actor) and actor != getattr(state, "leader", None)) or (p.private and actor != p.owner):
            raise RuleError(not_yours(p, state))
        if p.owners:  # each of several players answers for themselves
            return Action(type=p.action, actor=actor, args=args(p))
        return Action(type=p.action, actor=actor, args=args(p), on_behalf=p.owner if p.owner != actor else None)

    return build
