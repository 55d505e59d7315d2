"""Volcano mode: Volcano's queues, jobs and tasks, its scheduler configuration, and one scheduling session."""
