"""Server-rendered campaign pages: thin views over `campaigns.services` and
`campaigns.selectors`, like the API in campaigns_api.py; no rule is decided here.

One module per screen (URLs in campaigns/page_urls.py): `campaign` (my campaigns, the
campaign page), `pilot` (the pilot sheet), `builds` and `deck_builder`, `wizard` (a
mission's start) and `mission` (its review), `people` (invitations, profile), `boards`
(the board editor); `event_texts` words campaign and battle events, `common` holds what
every page shares.

Who sees what (R-ADD-31), as in the API, through campaigns/access.py: anonymous users are
sent to log in; the GM and the campaign's players read everything in it; anyone else gets
404 for a private campaign (they may not learn it exists) and 403 for a public one. The GM
makes every change; a player creates and revises their own builds.

Forms are plain HTML with CSRF, POST-redirect-GET. A refused form re-renders its page
with status 400 and the refusal's field, message and rule (InvalidInput, RuleViolation),
and nothing is written (every service runs in one transaction).
"""
