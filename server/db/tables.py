"""Every table of the playground's database, as SQLAlchemy Core sees it: one home for the schema.

The migrations (server/db/migrations/, Alembic) make these tables and bring an older database up to
them; the code queries them through these objects.
Huey's queue keeps its own tables (huey_*, made by Huey itself) beside them on PostgreSQL, and its own
file beside the SQLite database.
"""

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    Table,
    Text,
    text,
)

metadata = MetaData()
# SQLite's rowid for a key it counts itself; PostgreSQL's bigint (a course's Checks may pass 2**31 in all).
ID = BigInteger().with_variant(Integer(), "sqlite")

# The LTI tool's state (server/lti/store/): platforms, one-time values, launches, grade passbacks.
registrations = Table(
    "registrations",
    metadata,
    Column("issuer", Text, primary_key=True),
    Column("client_id", Text, primary_key=True),
    Column("title", Text, nullable=False),
    Column("auth_login_url", Text, nullable=False),
    Column("auth_token_url", Text, nullable=False),
    Column("key_set_url", Text, nullable=False),
    Column("auth_audience", Text),
)
deployments = Table(
    "deployments",
    metadata,
    Column("issuer", Text, primary_key=True),
    Column("client_id", Text, primary_key=True),
    Column("deployment_id", Text, primary_key=True),
)
once = Table(
    "once",
    metadata,
    Column("key", Text, primary_key=True),
    Column("value", Text, nullable=False),
    Column("expires", Float, nullable=False),
)
launches = Table(
    "launches",
    metadata,
    Column("id", Text, primary_key=True),
    Column("issuer", Text, nullable=False),
    Column("client_id", Text, nullable=False),
    Column("deployment_id", Text, nullable=False),
    Column("sub", Text, nullable=False),
    Column("resource_link_id", Text, nullable=False),
    Column("course", Text, nullable=False),  # the course's title, as the page names it
    Column("ags", Text),
    Column("created", Float, nullable=False),
    # Added with the class view: the LTI context's id (the course, as records scope it; None before) and
    # whether the launch was a teacher's (Instructor, TA, Administrator: the class view, not a learner).
    Column("context_id", Text),
    Column("teacher", Boolean, nullable=False, server_default=text("false")),
    # Added with the teacher's choice (Deep Linking's custom parameters): the activity's verdict (seed,
    # strict) and language; None: the server's PLAYGROUND_VERDICT, and the learner's own language.
    Column("rule", Text),
    Column("language", Text),
    # Added with "delete means deleted": when its learner's records were deleted (None: never). Such a
    # launch's token is refused; it is kept only while a grade earned before the delete is still to send.
    Column("forgotten", Float),
    # Added for the class view: whether the launch counts as the class (server/lti/roles.py's
    # learns: a Learner, no teacher; an Observer's is not), and the activity's title (the resource link's,
    # None where the LMS sent none), which the class view shows.
    Column("learner", Boolean, nullable=False, server_default=text("false")),
    Column("activity_title", Text),
    # Added with exercises (issue 51): the exercise the launch opened (server/exercises/registry.py's
    # LEGACY, the seed's, for every launch made before).
    Column("exercise", Text, nullable=False, server_default=text("'backward'")),
)
passbacks = Table(
    "passbacks",
    metadata,
    Column("jti", Text, primary_key=True),
    Column("launch_id", Text, ForeignKey("launches.id"), nullable=False),
    Column("score", Float, nullable=False),
    Column("maximum", Float, nullable=False),
    Column("timestamp", Text, nullable=False),
    Column("state", Text, nullable=False),
    Column("attempts", Integer, nullable=False, server_default=text("0")),
    Column("error", Text),
    Column("next_try", Float, nullable=False),
    Column("claimed_until", Float, nullable=False, server_default=text("0")),
    Column("sent", Float),
    Column("status", Integer),
)
Index("passbacks_due", passbacks.c.state, passbacks.c.next_try)
Index("passbacks_of_launch", passbacks.c.launch_id)
Index(
    "passbacks_one_pending",
    passbacks.c.launch_id,
    unique=True,
    sqlite_where=passbacks.c.state == "pending",
    postgresql_where=passbacks.c.state == "pending",
)

# The class view's records (server/records/): who opened an activity, and every Check they made there.
# A course is an LMS's context (issuer + context id; a course page's learner token: its issuer + course),
# an activity its resource link. `learner` is the learner's pseudonym in the course, the one the class view
# shows where the LMS shares no name (server/records/pseudonyms.py).
learners = Table(
    "learners",
    metadata,
    Column("issuer", Text, primary_key=True),
    Column("course", Text, primary_key=True),
    Column("activity", Text, primary_key=True),
    Column("sub", Text, primary_key=True),
    Column("learner", Text, nullable=False),  # the pseudonym
    # whether `learner` is the pseudonym in this course; false: made before 0011_pseudo (one for every
    # course of the LMS), remade at start
    Column("per_course", Boolean, nullable=False, server_default=text("false")),
    Column("name", Text),  # only where the LMS shared it (the launch's name claims)
    Column("opened", Float, nullable=False),  # first launch (or first Check, from a course page)
    Column("last_opened", Float, nullable=False),
)
attempts = Table(
    "attempts",
    metadata,
    Column("id", ID, primary_key=True, autoincrement=True),
    Column("issuer", Text, nullable=False),
    Column("course", Text, nullable=False),
    Column("activity", Text, nullable=False),
    Column("sub", Text, nullable=False),
    Column("time", Float, nullable=False),  # when the server received the Check (Unix seconds)
    Column("source", Text),  # the code; None where it was not kept (server/records/quota.py)
    Column("source_bytes", Integer, nullable=False, server_default=text("0")),  # its UTF-8 bytes kept
    Column("source_sha256", Text, nullable=False),  # of the source's UTF-8 bytes, as the receipt's
    Column("shape_sha256", Text, nullable=False),  # of the normalised source: duplicates fold into one
    Column("rule", Text, nullable=False),  # the verdict it was judged under (the seed's: seed or strict)
    # queued (waiting for the sandbox), judged, or skipped (over the bound: recorded, never judged)
    Column("state", Text, nullable=False),
    Column("passed", Boolean),  # the server's verdict; None until judged (or when skipped)
    Column("mistake", Text),  # the named mistake (report.MISTAKES) or error kind; None when passed
    Column("judged", Float),
    # Added with exercises (issue 51): the exercise the Check was made in and is judged with (the seed's,
    # LEGACY, for every Check made before).
    Column("exercise", Text, nullable=False, server_default=text("'backward'")),
)
Index(
    "attempts_of_activity",
    attempts.c.issuer,
    attempts.c.course,
    attempts.c.activity,
    attempts.c.exercise,
    attempts.c.time,
)
Index("attempts_queued", attempts.c.state, attempts.c.time)
# a verdict judged once is reused, for the same source, exercise and rule
Index("attempts_of_source", attempts.c.source_sha256, attempts.c.exercise, attempts.c.rule)
# What one learner keeps, per window and in all (server/records/quota.py), counted from the index alone.
Index("attempts_of_learner", attempts.c.issuer, attempts.c.sub, attempts.c.time, attempts.c.source_bytes)
# What the class view counts (server/classview/stats.py, in_order.py), in each learner's order: every
# column its windows and groups read, so they read this index alone, never the rows (with their sources);
# a learner's Checks of an exercise in order (the timeline, the export) by its first six columns.
Index(
    "attempts_counted",
    attempts.c.issuer,
    attempts.c.course,
    attempts.c.activity,
    attempts.c.exercise,
    attempts.c.sub,
    attempts.c.time,
    attempts.c.state,
    attempts.c.passed,
    attempts.c.mistake,
    attempts.c.shape_sha256,
)
# Each judged Check's result per expression and per graph that tells orders apart.
results = Table(
    "results",
    metadata,
    Column("attempt_id", ID, ForeignKey("attempts.id", ondelete="CASCADE"), primary_key=True),
    Column("expr", Text, primary_key=True),  # the exercise's group names
    Column("passed", Boolean, nullable=False),
    Column("mistake", Text),
)

# The class view's roster of each activity, as the LMS last gave it (server/classview/kept.py): fetched
# on the queue, one fetch per activity at a time (claimed_until), kept a day at most.
rosters = Table(
    "rosters",
    metadata,
    Column("issuer", Text, primary_key=True),
    Column("course", Text, primary_key=True),
    Column("activity", Text, primary_key=True),
    Column("members", Text),  # JSON: [{sub, name or null, roles}], the last roster read; None: none yet
    Column("fetched", Float),  # when those members were read
    Column("error", Text),  # why the last fetch failed, in one line; None: it did not
    Column("tried", Float),  # when the last fetch ended, either way; None: none has yet
    Column("claimed_until", Float, nullable=False, server_default=text("0")),  # a fetch under way until
)

# Whose records a teacher (or `forget-learner`) deleted in a course, and when: the class view says so
# rather than list them as not having opened it (server/classview/waiting.py). Their pseudonym only,
# never the LMS's id; kept as long as a Check is (expire()).
forgotten_learners = Table(
    "forgotten_learners",
    metadata,
    Column("issuer", Text, primary_key=True),
    Column("course", Text, primary_key=True),
    Column("learner", Text, primary_key=True),  # the pseudonym
    Column("forgotten", Float, nullable=False),  # when their records were deleted (Unix seconds)
)
