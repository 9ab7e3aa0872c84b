"""The tests' helpers: the learner code they use, the servers and platforms they start, what they read."""
