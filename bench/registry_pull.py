"""Times `imgaudit REGISTRY/IMAGE` (cold and warm cache) against `skopeo copy docker://... oci:DIR`.

Starts docker-registry on 127.0.0.1 with its own storage, pushes a multi-layer image built
from this machine's /usr with imgaudit-mkimage, and runs each command three times, keeping the
fastest run.
"""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def timed(cmd, env=None):
    start = time.monotonic()
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return time.monotonic() - start


def best(runs, make_cmd, before=None):
    times = []
    for i in range(runs):
        if before:
            before(i)
        times.append(timed(*make_cmd(i)))
    return min(times)


def main():
    build = sys.argv[1]
    imgaudit, mkimage = os.path.join(build, "imgaudit"), os.path.join(build, "imgaudit-mkimage")
    work = tempfile.mkdtemp(prefix="imgaudit-registry-bench.")
    registry = None
    try:
        port = free_port()
        with open(os.path.join(work, "config.yml"), "w") as f:
            f.write(f"version: 0.1\nlog:\n  level: error\n  accesslog:\n    disabled: true\nstorage:\n  filesystem:\n"
                    f"    rootdirectory: {work}/data\nhttp:\n  addr: 127.0.0.1:{port}\n")
        registry = subprocess.Popen(["docker-registry", "serve", os.path.join(work, "config.yml")],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(500):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.02)

        layers = []
        for d in ("/usr/bin", "/usr/sbin", "/usr/lib/x86_64-linux-gnu", "/usr/libexec", "/usr/lib/gcc"):
            if os.path.isdir(d):
                layers += ["--layer", f"{d}::gzip::COPY {d} {d}"]
        subprocess.run([mkimage, "--format", "oci", "-o", f"{work}/image", "--tag", "bench"] + layers, check=True,
                       stdout=subprocess.DEVNULL)
        image = f"127.0.0.1:{port}/bench:1"
        subprocess.run(["skopeo", "copy", "--quiet", "--dest-tls-verify=false", f"oci:{work}/image:bench",
                        f"docker://{image}"], check=True)
        blobs = os.path.join(work, "image", "blobs", "sha256")
        size = sum(os.path.getsize(os.path.join(blobs, b)) for b in os.listdir(blobs))
        print(f"image: {len(layers) // 2} layers, {size / 2**20:.1f} MiB compressed, registry 127.0.0.1, cores: {os.cpu_count()}")

        def fresh(path):
            shutil.rmtree(path, ignore_errors=True)

        skopeo = best(3, lambda i: (["skopeo", "copy", "--quiet", "--src-tls-verify=false", f"docker://{image}",
                                     f"oci:{work}/copy{i}:bench"],),
                      before=lambda i: fresh(f"{work}/copy{i}"))
        audit = [imgaudit, "--format", "json", "-o", "/dev/null", "--fail-on", "never", "-q", image]
        cold = best(3, lambda i: (audit + ["--cache-dir", f"{work}/cache{i}"],), before=lambda i: fresh(f"{work}/cache{i}"))
        warm = best(3, lambda i: (audit + ["--cache-dir", f"{work}/cache0"],))
        print(f"skopeo copy docker:// -> oci:DIR:        {skopeo:.2f} s")
        print(f"imgaudit, cold cache (pull and audit):  {cold:.2f} s  ({cold / skopeo:.2f} x skopeo)")
        print(f"imgaudit, warm cache (audit again):     {warm:.2f} s  ({warm / skopeo:.2f} x skopeo)")
    finally:
        if registry:
            registry.kill()
            registry.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
