"""The scheduler's own view as input: a YuniKorn state dump (`/debug/fullstatedump`) read as yk's two inputs."""
