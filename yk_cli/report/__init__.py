"""Renderers: core values -> text, JSON, SARIF, GitHub annotations, Mermaid. They return strings, never print."""
