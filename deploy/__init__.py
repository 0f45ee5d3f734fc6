"""A school's server: app replicas behind nginx on one PostgreSQL (docs/DEPLOY.md)."""
