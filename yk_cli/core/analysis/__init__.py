"""Readers of a finished dry run: report views, timelines, explanations, preemption loops, state at a time."""
