"""The order of YuniKorn's scheduling loop: sort policies and dynamic priorities (compiled with the engine)."""
