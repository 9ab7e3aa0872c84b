"""Running learner code on the server: a fresh bubblewrap sandbox per run, and judging what it computed.

The box (box.py: run, check; bwrap.py: its command line and uids; seccomp.py: its filter; terms.py: its
limits and outcome), what goes in and comes back and the slots (sandbox_io.py), the driver that runs
inside (sandbox_driver.py), one verification per learner and the queue for the slots (holds.py), and
the one way /verify and the records' judge run a Check and judge it (judging.py).
"""
