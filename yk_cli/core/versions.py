"""The YuniKorn releases yk models."""

LATEST_VERSION = "1.8"
"""The release the dry run models unless --yunikorn-version says otherwise (and the newest one yk knows)."""
