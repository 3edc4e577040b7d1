# Sourced by the bench scripts: starts three fast backends, nginx answering a small body like an
# engine's smallest reply, on 127.0.0.1:18081-18083. Needs $WORK (a scratch directory) and the
# PIDS array the caller's cleanup kills.
cat > "$WORK/nginx.conf" <<NGINX
worker_processes 1;
daemon off;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    keepalive_requests 1000000;
    client_body_temp_path $WORK/body;
    server { listen 127.0.0.1:18081; location / { return 200 "backend-1\n"; } }
    server { listen 127.0.0.1:18082; location / { return 200 "backend-2\n"; } }
    server { listen 127.0.0.1:18083; location / { return 200 "backend-3\n"; } }
}
NGINX
nginx -c "$WORK/nginx.conf" -p "$WORK" & PIDS+=($!)
