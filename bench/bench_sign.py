"""Signing in the overnight batch: ``autos publicar-editais`` with and without ``--assinar`` on the same cases.

1. Generates N autos de infração (default 1,000) with the case generator of ``bench/bench_publish.py`` and a test
   PKI (``tests/pki.py``: root, intermediate, the signer's A1 PKCS#12 file).
2. Runs both contenders on those same cases, with the same number of processes P (default: the cores
   available), once per round for R rounds (default 3), the order alternating from round to round so that a burst
   of load on a shared machine hits both alike:
   - **sem assinatura**: ``publicar-editais --processos P``;
   - **com --assinar**: the same, ``--assinar --certificado fiscal.p12 --cargo …`` (password from the
     environment): every individual edital, every consolidated edital and every caderno signed (PAdES B-B, the
     visible block with an embedded font) before its hash goes to the ledger.
3. Reports, per contender, the CPU per individual edital (user + system of the child and of the workers it waited
   for, ``wait4``) and the wall time, min and median over the rounds, and the ratio of the signed batch's
   throughput to the unsigned one's (unsigned cost ÷ signed cost, per round, min and median; the goal of issue 15
   is ≥ 0.7×). Each signed output is checked: every PDF of one edital is validated with pyHanko against the test
   root (a benchmark of broken signatures would be worthless).

Run:  ``.venv/bin/python bench/bench_sign.py [--casos 1000] [--rodadas 3] [--processos P]``
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]

from bench_publish import DATA, TODAY, _child, generate  # noqa: E402
from tests.pki import P12_PASSWORD, build_pki  # noqa: E402

from autos.base.ptbr import count_noun  # noqa: E402

UNSIGNED = "sem assinatura"
SIGNED = "com --assinar (A1, PAdES B-B)"


def publish(cases: Path, out: Path, processes: int, sign: list[str]) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "autos.cli", "--hoje", TODAY.isoformat(), "publicar-editais", str(cases),
           "--data", DATA.isoformat(), "-o", str(out), "--processos", str(processes),
           "--veiculo", "timoteo-mg=Diário Oficial Eletrônico do Município de Timóteo",
           "--veiculo", "Quadro de Editais do Paço Municipal", "--jornal", "Jornal Diário do Aço", *sign]
    out.mkdir(parents=True, exist_ok=True)
    r = _child(cmd, out)
    if r["rc"] not in (0, 1):
        raise SystemExit(f"publicar-editais falhou ({r['rc']}):\n{r['stdout'][-3000:]}\n{r['stderr'][-3000:]}")
    individual = [p for p in out.rglob("*-auto-*.pdf")]
    return {**r, "cases": len(individual), "editais": len(list(out.rglob("caderno-*.pdf")))}


def check_signed(out: Path, root_pem: Path, intermediate_pem: Path) -> int:
    """Validate every PDF of the first edital folder with pyHanko; the number of PDFs checked."""
    from pyhanko.keys import load_cert_from_pemder
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.validation import validate_pdf_signature
    from pyhanko_certvalidator import ValidationContext

    folder = next(p.parent for p in sorted(out.rglob("caderno-*.pdf")))
    checked = 0
    for pdf in sorted(folder.glob("*.pdf")):
        with pdf.open("rb") as fh:
            sigs = PdfFileReader(fh).embedded_signatures
            if len(sigs) != 1:
                raise SystemExit(f"{pdf}: {len(sigs)} assinaturas (esperada 1)")
            vc = ValidationContext(trust_roots=[load_cert_from_pemder(str(root_pem))],
                                   other_certs=[load_cert_from_pemder(str(intermediate_pem))])
            status = validate_pdf_signature(sigs[0], vc)
            if not status.bottom_line:
                raise SystemExit(f"{pdf}: assinatura inválida: {status.summary()}")
        checked += 1
    return checked


def _mm(values: list[float], fmt: str) -> str:
    return f"mín {fmt.format(min(values))}, mediana {fmt.format(statistics.median(values))}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--casos", type=int, default=1000, help="casos gerados; os dois concorrentes rodam os mesmos")
    ap.add_argument("--rodadas", type=int, default=3, help="rodadas intercaladas (≥ 3 para mín e mediana)")
    ap.add_argument("--processos", type=int, default=None, help="processos de cada concorrente (padrão: núcleos)")
    ap.add_argument("--manter", type=Path, default=None, help="guarda aqui os casos, o PKI e as saídas")
    args = ap.parse_args()
    cores = len(os.sched_getaffinity(0))
    processes = args.processos or cores
    work = args.manter or Path(tempfile.mkdtemp(prefix="bench-sign-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        _bench(args, work, cores, processes)
    finally:
        if args.manter is None:
            shutil.rmtree(work, ignore_errors=True)


def _bench(args: argparse.Namespace, work: Path, cores: int, processes: int) -> None:
    cases = work / "casos"
    shutil.rmtree(cases, ignore_errors=True)
    per_law = generate(cases, args.casos)
    pki = build_pki(work / "pki")
    os.environ["AUTOS_SENHA_CERTIFICADO"] = P12_PASSWORD.decode()
    sign = ["--assinar", "--certificado", str(pki.signer.p12), "--cargo", "Diretor do Departamento de Fiscalização"]
    print(f"{args.casos} casos gerados ({', '.join(f'{k}: {v}' for k, v in sorted(per_law.items()))}); "
          f"{count_noun(cores, 'núcleo disponível', 'núcleos disponíveis')}; "
          f"{count_noun(processes, 'processo', 'processos')} por concorrente; Python "
          f"{sys.version.split()[0]}; carga (uptime): {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    contenders = [(UNSIGNED, []), (SIGNED, sign)]
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in contenders}
    for rnd in range(max(1, args.rodadas)):
        order = contenders if rnd % 2 == 0 else contenders[::-1]
        print(f"\n=== rodada {rnd + 1} (carga {' '.join(f'{x:.2f}' for x in os.getloadavg())}) ===")
        for name, extra in order:
            out = work / f"saida-{rnd}-{'assinado' if extra else 'sem'}"
            shutil.rmtree(out, ignore_errors=True)
            r = publish(cases, out, processes, extra)
            runs[name].append(r)
            note = ""
            if extra and rnd == 0:
                note = f"; {check_signed(out, pki.root_pem, pki.intermediate_pem)} PDFs de um edital validados"
            print(f"  {name}: {r['wall']:.1f} s, CPU {r['cpu']:.1f} s = {1000 * r['cpu'] / r['cases']:.0f} ms por "
                  f"edital individual ({r['cases']} casos, "
                  f"{count_noun(r['editais'], 'edital', 'editais')}){note}")
            shutil.rmtree(out, ignore_errors=True)
    print(f"\n=== resumo: {args.casos} casos, {count_noun(processes, 'processo', 'processos')} cada, "
          f"{count_noun(max(1, args.rodadas), 'rodada', 'rodadas')} ===")
    for name, rs in runs.items():
        print(f"{name}:\n  CPU por edital: {_mm([1000 * r['cpu'] / r['cases'] for r in rs], '{:.0f} ms')}; "
              f"parede: {_mm([r['wall'] for r in rs], '{:.1f} s')}")
    plain, signed = runs[UNSIGNED], runs[SIGNED]
    cpu = [(a["cpu"] / a["cases"]) / (b["cpu"] / b["cases"]) for a, b in zip(plain, signed, strict=True)]
    wall = [(a["wall"] / a["cases"]) / (b["wall"] / b["cases"]) for a, b in zip(plain, signed, strict=True)]
    print("vazão com --assinar ÷ vazão sem assinatura (por rodada; meta ≥ 0,7×):\n"
          f"  CPU por edital: {', '.join(f'{x:.2f}×' for x in cpu)} ({_mm(cpu, '{:.2f}×')})\n"
          f"  tempo de parede: {', '.join(f'{x:.2f}×' for x in wall)} ({_mm(wall, '{:.2f}×')})")


if __name__ == "__main__":
    main()
