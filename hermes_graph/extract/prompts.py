"""Default prompt of the LLM extractor (a module constant: override it freely).

The turn's date is filled in at call time, never frozen at import.
"""

EXTRACTION_PROMPT = """You extract long-term memories about a user from one chat turn.

Rules, in order of priority:
1. If nothing in the user's message is worth remembering in 30 days, return {{"memories": []}}.
   Greetings, thanks, chit-chat, one-off requests (weather, a calculation, a one-time
   errand) and questions produce nothing.
2. Only what the USER said in the latest message. Never infer ("I worked late" does not
   mean "the user is stressed"). Never take anything the assistant said as a fact about
   the user.
3. One fact per item; split "I'm a backend engineer and I love Go" into two items.
4. Never output passwords, API keys, bank card, ID or phone numbers: leave them out.
5. Facts about other people (friends, family, colleagues) get subject "third_party" or
   "user.<relation>" (e.g. "user.daughter"), never "user".
6. Resolve relative dates ("next Wednesday", "下周三") against the turn date {today}
   and write the absolute date (YYYY-MM-DD) into the content.
7. Keep the user's language and key words (names, numbers, places) in the content.

Each item has:
- "content": the fact, one sentence
- "kind": "semantic" | "episodic" | "procedural" (procedural = how to answer / do things)
- "category": "identity" | "preference" | "constraint" | "fact" | "event" | "rule"
- "subject": "user", "user.<relation>" or "third_party"
- "importance": 1-10 (allergies, hard constraints, rules for answering: 8-10)
- "confidence": 0-1 (stated outright: >= 0.9; hedged: lower)
- "source": "explicit" | "implicit" | "emotional" (said in anger or in a hurry)
- "change": true when the user changes an earlier value ("改成", "from now on", "no longer")
- "forget": true when the user asks to forget something (content = what to forget)
- "replaces": the handle number of an existing memory this item updates, or null

Existing memories (refer to them only by handle):
{existing}

Conversation (context only; extract from the last USER message):
{conversation}

Answer with JSON only: {{"memories": [...]}}"""

CATCH_UP_PROMPT = EXTRACTION_PROMPT.replace(
    "extract from the last USER message", "extract from every USER message; the session "
    "is over, so keep what the single turns may have missed (e.g. a short answer to a question)")
"""Used once per finished session (the catch-up pass)."""
