#!/usr/bin/env python3
"""maintstat review on real data: the linux-rdma 2023 slice
(../shared/data/linux-rdma-2023.mbox.gz) with the linux-source-6.1
MAINTAINERS ($MS_LINUX_TREE).  The expected values were checked by hand
on the raw messages (Python's mailbox module, dates converted to UTC):

- "[PATCH for-rc 2/6] IB/hfi1: Reject a zero-length user expected
  buffer" <167328547120...stgit@awfm-02.cornelisnetworks.com>, posted
  Mon, 09 Jan 2023 12:31:11 -0500 (touches drivers/infiniband/hw/hfi1/),
  maps to HFI1 DRIVER and INFINIBAND SUBSYSTEM.  Nobody replies to the
  patch itself; Leon Romanovsky <leonro@nvidia.com> answers the cover
  letter (0/6) with <Y707Qv31FXlAz2SF@unreal> at Tue, 10 Jan 2023
  12:17:38 +0200: 16.774 hours.  His reply to patch 1/6
  (<Y705/CVFALoW1j3X@unreal>) is not a response to 2/6.
- "[PATCH 2/8] RDMA/bnxt_re: Use auxiliary driver interface"
  <20230108030208.26390-3-ajit.khaparde@broadcom.com>, Sat, 7 Jan 2023
  19:02:02 -0800, maps to BROADCOM NETXTREME-E ROCE DRIVER; first answered
  by Leon <leon@kernel.org> on the cover letter, Tue, 10 Jan 2023
  10:38:47 +0200: 53.6125 hours.  Its six postings (v1..v6) are one patch.
- "[PATCH for-next 1/1] RDMA/irdma: One variable err is enough"
  <20230104064333.660344-1-yanjun.zhu@intel.com>, 2023-01-04 01:43:33
  -0500, maps to INTEL ETHERNET PROTOCOL DRIVER FOR RDMA and INFINIBAND
  SUBSYSTEM; Leon's b4 thank-you <167281574575...b4-ty@kernel.org> at
  09:02:25 +0200: 0.3144 hours.
"""
import os
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, skip_all, SOURCE_ROOT  # noqa: E402

TREE = os.environ.get("MS_LINUX_TREE")
DATA = os.path.join(SOURCE_ROOT, "..", "shared", "data",
                    "linux-rdma-2023.mbox.gz")
if not TREE or not os.path.isfile(os.path.join(TREE, "MAINTAINERS")):
    skip_all("MS_LINUX_TREE is not set to an unpacked linux-source-6.1 "
             "tree (make linux-tree)")
if not os.path.isfile(DATA):
    skip_all("the linux-rdma slice ../shared/data/linux-rdma-2023.mbox.gz "
             "is not there")

HFI = "167328547120.1472310.6362802432127399257.stgit@awfm-02." \
      "cornelisnetworks.com"
BNXT = "20230108030208.26390-3-ajit.khaparde@broadcom.com"
IRDMA = "20230104064333.660344-1-yanjun.zhu@intel.com"

r = run("review", "--tree", TREE, "--archive", DATA, "--json",
        "HFI1 DRIVER", "INFINIBAND SUBSYSTEM",
        "BROADCOM NETXTREME-E ROCE DRIVER",
        "INTEL ETHERNET PROTOCOL DRIVER FOR RDMA")
eq(r.rc, 0, "review of the rdma slice exits 0")
doc = r.json()
ents = {e["name"]: e for e in doc["entries"]}


def patch(entry, msgid):
    for p in ents[entry]["patch_list"]:
        if msgid in p["versions"]:
            return p
    return None


for entry in ("HFI1 DRIVER", "INFINIBAND SUBSYSTEM"):
    ok(patch(entry, HFI) is not None, f"hfi1 2/6 maps to {entry}")
ok(patch("BROADCOM NETXTREME-E ROCE DRIVER", HFI) is None,
   "hfi1 2/6 does not map to bnxt_re")
p = patch("HFI1 DRIVER", HFI)
eq(p["first_response"]["message_id"], "Y707Qv31FXlAz2SF@unreal",
   "hfi1 2/6: first response is Leon's reply to the cover letter")
eq(p["first_response"]["from"]["email"], "leonro@nvidia.com", "first replier")
eq(round(p["first_response"]["hours"], 3), 16.774, "latency 16.774 h")
# that reply quotes the cover letter's shortlog, "This needs to be
# resent." under 1/6 and "These applied to -rc." under 2/6 to 6/6
eq((p["state"], p["state_evidence"]["message_id"]),
   ("accepted", "Y707Qv31FXlAz2SF@unreal"),
   "hfi1 2/6: accepted by the applied line under its quoted subject")

p = patch("BROADCOM NETXTREME-E ROCE DRIVER", BNXT)
ok(p is not None, "bnxt_re 2/8 maps to BROADCOM NETXTREME-E ROCE DRIVER")
eq(p["first_response"]["message_id"], "Y70kF3cpyogrxUUC@unreal",
   "bnxt_re 2/8: Leon's reply to the cover")
eq(round(p["first_response"]["hours"], 4), 53.6125, "latency 53.6125 h")
eq(len(p["versions"]), 6, "v1..v6 are one patch")

for entry in ("INTEL ETHERNET PROTOCOL DRIVER FOR RDMA",
              "INFINIBAND SUBSYSTEM"):
    ok(patch(entry, IRDMA) is not None, f"irdma patch maps to {entry}")
p = patch("INTEL ETHERNET PROTOCOL DRIVER FOR RDMA", IRDMA)
eq(p["first_response"]["from"]["email"], "leon@kernel.org", "irdma first replier")
eq(round(p["first_response"]["hours"], 4), 0.3144, "latency 0.3144 h")
ib = ents["INFINIBAND SUBSYSTEM"]
ok(ib["patches"] > 500 and 0 < ib["replied"] <= ib["patches"],
   "INFINIBAND SUBSYSTEM has hundreds of patches, most answered")
# netdev's request-pull mails ("pull-request: mlx5-next 2023-01-24",
# with the whole diff) are pull requests, not patches to review
pulls = [p["subject"] for p in ib["patch_list"]
         if p["subject"].lower().startswith("pull-request")]
eq(pulls, [], "no 'pull-request:' mail among INFINIBAND's patches")

# every entry with patches: no number a maintainer would call impossible
r = run("review", "--tree", TREE, "--archive", DATA, "--json")
eq(r.rc, 0, "review of every entry exits 0")
every = r.json()["entries"]
ok(len(every) > 300, "hundreds of entries have patches", len(every))
bad = []
for e in every:
    n = e["patches"]
    for what, good in (
            ("series <= patches", e["series"] <= n),
            ("replied <= patches", e["replied"] <= n),
            ("by listed <= replied", e["replied_by_listed"] <= e["replied"]),
            ("tagged <= patches", e["review_tagged"] <= n),
            ("ignored + replied <= patches", e["ignored"] + e["replied"] <= n),
            ("shares in [0, 1]", all(e[k] is None or 0 <= e[k] <= 1
                                     for k in ("reply_share",
                                               "responsiveness"))),
            ("no negative time", all(
                v is None or v >= 0
                for k in ("time_to_first_response",
                          "time_to_first_maintainer_response",
                          "time_to_first_review_tag")
                for v in (e[k] or {}).values()
                if isinstance(v, (int, float))))):
        if not good:
            bad.append((e["name"], what))
    for p in e["people"]:
        if not (p["replied"] <= n - p["own_patches"] and
                (p["replied_share"] is None or
                 0 <= p["replied_share"] <= 1)):
            bad.append((e["name"], p["email"]))
eq(bad, [], "every entry: series <= patches (AQUANTIA had 1 patch in 2 "
   "series), replied, tagged and ignored within patches, shares in "
   "[0, 1], no negative time")
done()
