"""docker-compose.yml describes a deployment the settings can run with (Docker is not available here)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
CADDYFILE = ROOT / "deploy" / "Caddyfile"
SETTINGS = ROOT / "magicfootball" / "settings.py"


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text())


@pytest.fixture(scope="module")
def services(compose: dict[str, Any]) -> dict[str, Any]:
    return compose["services"]


def command_text(service: dict[str, Any]) -> str:
    command = service.get("command", "")
    return " ".join(command) if isinstance(command, list) else command


def settings_env_names() -> set[str]:
    """Every environment variable settings.py reads (os.environ.get / env_bool / os.environ[...])."""
    source = SETTINGS.read_text()
    pattern = r'os\.environ\.get\(\s*"(\w+)"|env_bool\(\s*"(\w+)"|os\.environ\[\s*"(\w+)"\s*\]'
    return {name for groups in re.findall(pattern, source) for name in groups if name}


def test_services_are_postgres_redis_web_and_a_proxy(services: dict[str, Any]) -> None:
    assert set(services) == {"postgres", "redis", "web", "proxy"}
    assert services["postgres"]["image"].startswith("postgres:")
    assert services["redis"]["image"].startswith("redis:")
    assert services["proxy"]["image"].startswith("caddy:")
    assert "build" in services["web"]


def test_web_migrates_loads_catalog_collects_static_then_runs_the_worker(services: dict[str, Any]) -> None:
    """The worker is uvicorn with the options tests and benchmarks use (magicfootball/serve.py), on all
    interfaces of the container, trusting the proxy's forwarded headers (only the proxy reaches it)."""
    command = command_text(services["web"])
    steps = [
        "manage.py migrate --noinput",
        "manage.py load_catalog",
        "manage.py collectstatic --noinput",
        "python -m magicfootball.serve",
    ]
    positions = [command.find(step) for step in steps]
    assert all(p >= 0 for p in positions), f"missing a step in web's command: {command}"
    assert positions == sorted(positions), f"steps out of order in web's command: {command}"
    worker = command[positions[-1] :]
    assert re.search(r"--host 0\.0\.0\.0 --port 8000 .*--proxy-headers", worker)
    assert "--forwarded-allow-ips '*'" in worker


def test_the_worker_command_starts_uvicorn_with_the_project_options() -> None:
    from uvicorn.main import main as uvicorn

    from magicfootball import serve

    argv = serve.command("--host", "0.0.0.0", "--port", "8000", "--proxy-headers")
    context = uvicorn.make_context("magicfootball.serve", list(argv))  # parses, does not run
    params = context.params
    assert params["app"] == "magicfootball.asgi:application"
    assert (params["loop"], params["http"], params["ws"]) == ("uvloop", "httptools", "websockets-sansio")
    assert params["ws_max_size"] == 1024 * 1024 and params["ws_per_message_deflate"] is False
    assert params["access_log"] is False and params["proxy_headers"] is True


def test_web_can_be_scaled(services: dict[str, Any], compose: dict[str, Any]) -> None:
    web = services["web"]
    assert "container_name" not in web, "a fixed container_name prevents --scale web=N"
    assert "ports" not in web, "a published host port on web prevents --scale web=N; the proxy publishes"
    assert "8000" in [str(p) for p in web.get("expose", [])]
    # replicas serialise their start-up steps on a lock in a shared volume
    command = command_text(web)
    assert command.index("flock") < command.index("migrate")
    lock_dir = command.split("flock", 1)[1].split()[0].rsplit("/", 1)[0]
    mounts = {v.split(":")[1]: v.split(":")[0] for v in web["volumes"]}
    assert lock_dir in mounts and mounts[lock_dir] in compose["volumes"]


def test_web_environment_is_what_settings_read(services: dict[str, Any]) -> None:
    env = services["web"]["environment"]
    read = settings_env_names()
    assert {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "ALLOWED_HOSTS", "DEBUG"} <= read
    unknown = set(env) - read
    assert not unknown, f"web sets variables settings.py never reads: {sorted(unknown)}"
    for required in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "ALLOWED_HOSTS", "DEBUG", "BEHIND_PROXY"):
        assert required in env, f"web must set {required}"
    assert str(env["DEBUG"]).lower() == "false"
    assert "?" in env["SECRET_KEY"], "SECRET_KEY must be required from the operator, not defaulted"


def test_database_and_redis_urls_point_at_the_compose_services(services: dict[str, Any]) -> None:
    env = services["web"]["environment"]
    pg_env = services["postgres"]["environment"]
    database = urlsplit(env["DATABASE_URL"].replace("${POSTGRES_PASSWORD:-mft}", "secret"))
    assert database.scheme in {"postgres", "postgresql"}
    assert (database.hostname, database.port) == ("postgres", 5432)
    assert database.path == "/" + pg_env["POSTGRES_DB"]
    assert database.username == pg_env["POSTGRES_USER"]
    assert (
        "${POSTGRES_PASSWORD" in env["DATABASE_URL"] and "${POSTGRES_PASSWORD" in pg_env["POSTGRES_PASSWORD"]
    )
    redis = urlsplit(env["REDIS_URL"])
    assert (redis.scheme, redis.hostname, redis.port) == ("redis", "redis", 6379)


def test_web_waits_for_healthy_services_and_has_its_own_healthcheck(services: dict[str, Any]) -> None:
    depends = services["web"]["depends_on"]
    assert depends["postgres"]["condition"] == "service_healthy"
    assert depends["redis"]["condition"] == "service_healthy"
    assert "pg_isready" in " ".join(services["postgres"]["healthcheck"]["test"])
    assert "ping" in services["redis"]["healthcheck"]["test"]
    assert "/healthz" in " ".join(services["web"]["healthcheck"]["test"])
    assert services["proxy"]["depends_on"]["web"]["condition"] == "service_healthy"


def test_only_the_proxy_publishes_ports(services: dict[str, Any]) -> None:
    published = {name for name, service in services.items() if service.get("ports")}
    assert published == {"proxy"}
    targets = {str(p).rsplit(":", 1)[-1] for p in services["proxy"]["ports"]}
    assert "80" in targets


def test_proxy_balances_every_web_replica_including_websockets(services: dict[str, Any]) -> None:
    mounts = services["proxy"]["volumes"]
    assert any(m.startswith("./deploy/Caddyfile:/etc/caddy/Caddyfile") for m in mounts)
    caddyfile = CADDYFILE.read_text()
    # all replicas: the service name is re-resolved to every container's address
    assert re.search(r"dynamic a \{[^}]*name web[^}]*port 8000", caddyfile, re.S)
    # long-lived sockets spread by open connections unless LB_POLICY says otherwise (room-affine routing is an
    # option, issue 22); no sticky sessions needed
    assert "lb_policy {$LB_POLICY:least_conn}" in caddyfile
    assert services["proxy"]["environment"]["LB_POLICY"] == "${LB_POLICY:-least_conn}"
    assert "lb_policy cookie" not in caddyfile and "ip_hash" not in caddyfile
    # nothing in the proxy strips the websocket upgrade (Caddy passes it through unless told otherwise)
    assert "header_up -Upgrade" not in caddyfile and "header_up -Connection" not in caddyfile


def test_the_healthcheck_url_exists_in_the_app() -> None:
    urls = (ROOT / "magicfootball" / "urls.py").read_text()
    assert 'path("healthz"' in urls


def test_caddy_accepts_the_caddyfile(caddy_path: str) -> None:
    proc = subprocess.run(
        [caddy_path, "validate", "--adapter", "caddyfile", "--config", str(CADDYFILE)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr


def test_dockerfile_installs_the_project_and_serves_static() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert dockerfile.startswith("#") and "FROM python:3.11" in dockerfile
    assert "pip install --no-deps -e ." in dockerfile
    assert "SERVE_STATIC=true" in dockerfile
    assert "USER mft" in dockerfile
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert ".venv" in ignored and "db.sqlite3*" in ignored
