/*
 * The JSON result record: a record built by hand with known values is
 * written to a file and read back with jq(1), and checked against
 * doc/schema.json when python3 has the jsonschema module.  The checks
 * compare values, not just that the document parses.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "options.h"
#include "settings.h"
#include "record.h"
#include "result.h"
#include "sysinfo.h"
#include "tap.h"

static char	 path[] = "/tmp/bonnie-ng-t-record.XXXXXX";
static int	 have_jq;
static int	 have_validator = -1;

/* Whether python3 with jsonschema and doc/schema.json are at hand. */
static int
validator(void)
{
	if (have_validator == -1)
		have_validator = access("doc/schema.json", R_OK) == 0 &&
		    system("python3 -c 'import jsonschema' >/dev/null 2>&1") == 0;
	return have_validator;
}

/* Run jq -c FILTER on the record; the first line of output, or "?". */
static const char *
jq(const char *filter)
{
	static char	 out[4096];
	char		 cmd[1024];
	FILE		*p;

	snprintf(cmd, sizeof(cmd), "jq -c '%s' %s 2>&1", filter, path);
	strcpy(out, "?");
	if ((p = popen(cmd, "r")) == NULL)
		return out;
	if (fgets(out, sizeof(out), p) == NULL)
		strcpy(out, "?");
	out[strcspn(out, "\n")] = '\0';
	pclose(p);
	return out;
}

#define is_jq(filter, want, desc) do {					\
	if (have_jq)							\
		is_str(jq(filter), (want), (desc));			\
	else								\
		tap_skip("jq not installed");				\
} while (0)

static void
phase(struct phase_result *p, double rate, double cpu, double p99)
{
	memset(p, 0, sizeof(*p));
	p->ran = 1;
	p->bytes = 4194304;
	p->ops = 1024;
	p->elapsed = 0.25;
	p->user = 0.01;
	p->sys = 0.04;
	p->cpu_pct = cpu;
	p->rate = rate;
	p->resident = 0.0;
	p->drop_seconds = 0.003;
	p->cache = CSTATE_COLD;
	p->dev_read = -1;
	p->dev_written = 4194304;
	p->machine_busy = 37.5;
	if (p99 > 0) {
		p->lat.count = 1024;
		p->lat.min = 1e-6;
		p->lat.p50 = 2e-6;
		p->lat.p90 = 5e-6;
		p->lat.p99 = p99;
		p->lat.p999 = p99 * 2;
		p->lat.max = 0.5;
	}
}

static void
fill_runs(struct run_result r[3])
{
	static const double	wr[3] = { 100.5, 300.5, 200.5 };
	static const double	cpu[3] = { 10, 30, 20 };
	int			i;

	memset(r, 0, 3 * sizeof(*r));
	for (i = 0; i < 3; i++) {
		r[i].seed = 42 + (uint64_t)i;
		snprintf(r[i].start_utc, sizeof(r[i].start_utc),
		    "2026-11-29T18:0%d:00Z", i);
		phase(&r[i].ph[PH_PUTC], 900.9, 99, 0);
		phase(&r[i].ph[PH_WRITE], wr[i], cpu[i], 0.001 * (i + 1));
		phase(&r[i].ph[PH_REWRITE], 53280.9, 50, 0.002);
		phase(&r[i].ph[PH_READ], 1000, 5, 0.003);
		phase(&r[i].ph[PH_SEEKS], 150.25, 3, 0.01);
		r[i].ph[PH_SEEKS].workers = 3;
		r[i].ph[PH_SEEKS].bytes = 4096 * 1000;
		r[i].ph[PH_SEEKS].ops = 1000;
	}
	/* Per-char write has no latency; the drop before it never ran. */
	r[0].ph[PH_PUTC].drop_seconds = -1;
	/* Residency unknown and the cache warm in run 0's read. */
	r[0].ph[PH_READ].resident = -1;
	r[0].ph[PH_READ].cache = CSTATE_WARM;
	r[1].ph[PH_READ].resident = 0.125;
	r[1].ph[PH_REWRITE].direct = 1;
	r[1].ph[PH_REWRITE].cache = CSTATE_DIRECT;
	r[1].ph[PH_WRITE].imprecise = 1;
	/* Run 2 failed in the seeks phase after a SIGINT. */
	r[2].ph[PH_SEEKS].ran = 0;
	r[2].interrupted = SIGINT;
	r[2].err.set = 1;
	r[2].err.phase = "seeks";
	snprintf(r[2].err.path, sizeof(r[2].err.path), "/tmp/bonnie-ng.1.x");
	r[2].err.offset = 12582912;
	r[2].err.errnum = 28;
	snprintf(r[2].err.message, sizeof(r[2].err.message),
	    "bonnie-ng: seeks: /tmp/bonnie-ng.1.x: No space left on device");
}

static void
fill_sysinfo(struct sysinfo *si)
{
	memset(si, 0, sizeof(*si));
	si->os = "Linux";
	si->kernel_release = "6.1.0-test";
	si->kernel_version = "#1 SMP \"quoted\"";
	si->machine = "x86_64";
	si->hostname = "host\tname";
	si->cpu_model = NULL;
	si->cpus = 2;
	si->ram_bytes = 25769803776LL;
	si->hypervisor = -1;
	si->dir = "/mnt/my disk";
	si->fs_type = "ext4";
	si->mount_point = "/mnt/my disk";
	si->mount_source = "/dev/vda1";
	si->mount_options = "rw,relatime";
	si->block_size = 4096;
	si->free_bytes = -1;
	si->has_device = 1;
	si->device.name = "vda";
	si->device.scheduler = "mq-deadline";
	si->device.rotational = 0;
	si->device.read_ahead_kb = 128;
	si->device.max_sectors_kb = 1280;
	si->device.logical_block_size = 512;
	si->device.physical_block_size = 4096;
	si->device.model = NULL;
	si->device.size_bytes = 10737418240;
	si->has_vm = 0;
}

static int
write_record(const struct record *rec)
{
	FILE	*f;
	int	 rc;

	if ((f = fopen(path, "w")) == NULL)
		return -1;
	rc = record_write_json(f, rec);
	if (fclose(f) == EOF)
		rc = -1;
	return rc;
}

/* Validate the record against doc/schema.json (tests/schema.py). */
static void
check_schema(const char *desc)
{
	char	cmd[1024];

	if (!validator()) {
		tap_skip("python3 jsonschema or doc/schema.json missing");
		return;
	}
	snprintf(cmd, sizeof(cmd), "python3 tests/schema.py doc/schema.json %s",
	    path);
	ok(system(cmd) == 0, desc);
}

/* doc/schema.json against its meta-schema, once for the whole suite. */
static void
check_schema_itself(void)
{
	if (!validator()) {
		tap_skip("python3 jsonschema or doc/schema.json missing");
		return;
	}
	ok(system("python3 tests/schema.py doc/schema.json --check") == 0,
	    "doc/schema.json is a valid JSON Schema (its meta-schema)");
}

/*
 * The schema must reject records that break it: each mutation of the
 * written record, applied alone, has to fail validation.
 */
static void
check_schema_rejects(void)
{
	char	cmd[2048];

	if (!validator()) {
		tap_skip("python3 jsonschema or doc/schema.json missing");
		return;
	}
	snprintf(cmd, sizeof(cmd), "python3 -c 'import copy, json, sys, "
	    "jsonschema\n"
	    "s = json.load(open(\"doc/schema.json\"))\n"
	    "V = jsonschema.validators.validator_for(s)(s)\n"
	    "d = json.load(open(sys.argv[1]))\n"
	    "def w(x): x[\"runs\"][0][\"phases\"][\"write\"][\"cache\"] = "
	    "\"hot\"\n"
	    "def b(x): x[\"runs\"][0][\"phases\"][\"write\"][\"bytes\"] = "
	    "\"1\"\n"
	    "def k(x): del x[\"runs\"][0][\"phases\"][\"read\"]\n"
	    "def e(x): x[\"runs\"][0][\"phases\"][\"write\"][\"extra\"] = 1\n"
	    "def v(x): x[\"schema\"] = \"bonnie-ng/2\"\n"
	    "def c(x): x[\"options\"][\"cache\"] = \"direct\"\n"
	    "def r(x): x[\"runs\"][0][\"phases\"][\"seeks\"][\"kps\"] = 1\n"
	    "bad = 0\n"
	    "for f in (w, b, k, e, v, c, r):\n"
	    "  x = copy.deepcopy(d); f(x)\n"
	    "  try:\n"
	    "    V.validate(x)\n"
	    "    print(\"# accepted:\", f.__name__); bad = 1\n"
	    "  except jsonschema.ValidationError:\n"
	    "    pass\n"
	    "sys.exit(bad)' %s", path);
	ok(system(cmd) == 0, "schema rejects wrong types, enums, keys, version");
}

static void
test_full(void)
{
	static char	*argv[] = { "bonnie-ng", "-s", "4m", "-m", "it's",
			    "--json", "r.json", NULL };
	struct options	 opt;
	struct sysinfo	 si;
	struct run_result runs[3];
	struct record	 rec;

	settings_defaults(&opt);
	opt.dir = "/mnt/my disk";
	opt.size = 4194304;
	opt.chunk = 4096;
	opt.label = "lab\"el";
	opt.seed = 42;
	opt.seed_given = 1;
	opt.repeat = 3;
	opt.ram = 0;
	opt.phases &= ~(1u << PH_GETC);
	opt.argc = 7;
	opt.argv = argv;
	fill_sysinfo(&si);
	fill_runs(runs);

	memset(&rec, 0, sizeof(rec));
	rec.opt = &opt;
	rec.sys = &si;
	snprintf(rec.start_utc, sizeof(rec.start_utc), "2026-11-29T18:00:00Z");
	rec.nruns = 3;
	rec.runs = runs;

	is_int(write_record(&rec), 0, "record written");
	is_jq(".schema", "\"bonnie-ng/1\"", "schema");
	is_jq(".tool", "\"bonnie-ng\"", "tool");
	is_jq(".command", "[\"bonnie-ng\",\"-s\",\"4m\",\"-m\",\"it's\","
	    "\"--json\",\"r.json\"]", "command is argv exactly");
	is_jq(".start", "\"2026-11-29T18:00:00Z\"", "start time");
	is_jq(".system.kernel_version", "\"#1 SMP \\\"quoted\\\"\"",
	    "quoted kernel version round-trips");
	is_jq(".system.hostname", "\"host\\tname\"", "tab escaped");
	is_jq("[.system.cpu_model, .system.hypervisor, "
	    ".system.hypervisor_vendor]", "[null,null,null]",
	    "unknown system fields are null");
	is_jq(".system.ram_bytes", "25769803776", "RAM beyond 32 bits");
	is_jq(".target | [.dir, .fs_type, .mount_point, .free_bytes, .vm]",
	    "[\"/mnt/my disk\",\"ext4\",\"/mnt/my disk\",null,null]",
	    "target fields, unknown free space and vm null");
	is_jq(".target.device", "{\"name\":\"vda\",\"scheduler\":"
	    "\"mq-deadline\",\"rotational\":false,\"read_ahead_kb\":128,"
	    "\"max_sectors_kb\":1280,"
	    "\"logical_block_size\":512,\"physical_block_size\":4096,"
	    "\"model\":null,\"size_bytes\":10737418240}", "device object");
	is_jq(".options | [.label, .size_bytes, .size_mib, .chunk, .cache, "
	    ".direct, .ram_bytes, .seed, .seed_given, .repeat, .fast]",
	    "[\"lab\\\"el\",4194304,4,4096,\"cold\",false,null,42,true,3,"
	    "false]", "options");
	is_jq(".options.phases", "[\"putc\",\"write\",\"rewrite\",\"read\","
	    "\"seeks\"]", "selected phases listed in order");
	is_jq(".runs | length", "3", "three runs");
	is_jq("[.runs[].index]", "[0,1,2]", "run indexes");
	is_jq("[.runs[].seed]", "[42,43,44]", "run seeds");
	is_jq("[.runs[].phases.getc]", "[null,null,null]",
	    "a phase not run is null");
	is_jq("[.runs[].phases.write.bytes]", "[4194304,4194304,4194304]",
	    "bytes");
	is_jq(".runs[0].phases.write | [.rate, .kps, .unit, .cpu_pct]",
	    "[100.5,100,\"KiB/s\",10]", "rate, whole kps, unit, cpu");
	is_jq(".runs[0].phases.rewrite.kps", "53280", "kps rounds down");
	is_jq(".runs[0].phases.seeks | [.unit, .kps, .workers, .ops]",
	    "[\"seeks/s\",null,3,1000]", "seeks: unit, no kps, workers");
	is_jq(".runs[0].phases.write | has(\"workers\")", "false",
	    "workers only for seeks");
	is_jq("[.runs[0].phases.read.cache, .runs[1].phases.read.cache, "
	    ".runs[1].phases.rewrite.cache, .runs[1].phases.rewrite.io, "
	    ".runs[0].phases.rewrite.io]",
	    "[\"warm\",\"cold\",\"direct\",\"direct\",\"buffered\"]",
	    "cache states and io");
	is_jq("[.runs[0].phases.read.resident, .runs[1].phases.read.resident]",
	    "[null,0.125]", "residency null when unknown");
	is_jq("[.runs[0].phases.putc.drop_s, .runs[1].phases.putc.drop_s]",
	    "[null,0.003]", "drop time null when no drop");
	is_jq(".runs[0].phases.putc.latency", "null", "no latency is null");
	is_jq(".runs[1].phases.write.latency | [.count, .p99_s, .p999_s, "
	    ".max_s]", "[1024,0.002,0.004,0.5]", "latency figures");
	is_jq(".runs[0].phases.write | [.dev_read_bytes, .dev_written_bytes, "
	    ".machine_busy_pct]", "[null,4194304,37.5]",
	    "device I/O and machine busy");
	is_jq("[.runs[].phases.write.imprecise]", "[false,true,false]",
	    "imprecise flag");
	is_jq("[.runs[0].interrupted, .runs[0].error, .runs[2].interrupted]",
	    "[null,null,\"SIGINT\"]", "interrupted");
	is_jq(".runs[2].error", "{\"phase\":\"seeks\",\"path\":"
	    "\"/tmp/bonnie-ng.1.x\",\"offset\":12582912,\"errno\":28,"
	    "\"message\":\"bonnie-ng: seeks: /tmp/bonnie-ng.1.x: No space left "
	    "on device\"}", "error object");
	is_jq(".runs[2].phases.seeks", "null", "failed phase is null");
	is_jq(".summary.write.rate | [.n, .median, .min, .max, .mean]",
	    "[3,200.5,100.5,300.5,200.5]", "summary rate median/min/max");
	is_jq(".summary.write.cpu_pct | [.median, .min, .max]", "[20,10,30]",
	    "summary cpu");
	is_jq(".summary.write.p99_s | [.n, .median, .min, .max]",
	    "[3,0.002,0.001,0.003]", "summary p99");
	is_jq(".summary.putc.p99_s", "null", "summary p99 null without latency");
	is_jq(".summary.seeks.rate.n", "2", "summary over runs that ran");
	is_jq(".summary.getc", "null", "summary null for a phase never run");
	check_schema_itself();
	check_schema("full record matches doc/schema.json");
	check_schema_rejects();
}

static void
test_minimal(void)
{
	struct options	 opt;
	struct run_result r;
	struct record	 rec;

	settings_defaults(&opt);
	opt.dir = "/tmp";
	opt.size = 1048576;
	opt.chunk = 16384;
	opt.label = "x";
	opt.cache = CACHE_MODE_KEEP;
	opt.ram = 1ULL << 30;
	opt.argc = 0;
	opt.argv = NULL;
	memset(&r, 0, sizeof(r));
	phase(&r.ph[PH_WRITE], 100, 10, 0);
	r.ph[PH_WRITE].cache = CSTATE_KEEP;
	r.ph[PH_WRITE].resident = 1;

	memset(&rec, 0, sizeof(rec));
	rec.opt = &opt;
	rec.sys = NULL;
	rec.nruns = 1;
	rec.runs = &r;

	is_int(write_record(&rec), 0, "minimal record written");
	is_jq("[.start, .command]", "[null,[]]", "no start time, empty argv");
	is_jq(".system | [.[]] | unique", "[null]",
	    "every system field null without sysinfo");
	is_jq(".target | [.dir, .fs_type, .device, .vm]",
	    "[\"/tmp\",null,null,null]", "target dir from the options");
	is_jq(".options | [.cache, .ram_bytes]", "[\"keep\",1073741824]",
	    "keep mode and RAM");
	is_jq(".runs[0].phases.write | [.cache, .drop_s, .resident]",
	    "[\"keep\",null,1]", "keep: no drop time");
	is_jq("[.summary | del(.free_space) | .[] | select(. != null)] | "
	    "length", "1", "one phase in the summary");
	is_jq(".summary.free_space", "{\"lost_bytes\":[0],\"leaking_runs\":0,"
	    "\"total_lost_bytes\":0}", "the free space trend in the summary");
	check_schema("minimal record matches doc/schema.json");
}

int
main(void)
{
	int	fd;

	if ((fd = mkstemp(path)) == -1) {
		perror("mkstemp");
		return 1;
	}
	close(fd);
	have_jq = system("jq --version >/dev/null 2>&1") == 0;
	test_full();
	test_minimal();
	unlink(path);
	return done_testing();
}
