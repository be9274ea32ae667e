// SPDX-License-Identifier: GPL-2.0-only
/*
 * Generators for --help, the man page (roff) and the bash completion.  The
 * build runs the tool with --dump-man and --dump-bash-completion, so the
 * installed documentation always matches the option table.
 */
#include <string.h>

#include "sdsi/json_contract.h"
#include "docgen.h"
#include "exit_codes.h"
#include "cli/cli_option.h"
#include "tool_options.h"
#include "prom_metrics.h"
#include "util/util_array.h"

#define PROGRAM "intel_sdsi"

void print_usage(FILE *f)
{
	fprintf(f, "Usage: %s [-l] [-d DEVNO [-i] [-s] [-m] [-C] [-a FILE] [-c FILE]]\n"
		   "       %*s [--all | --file PATH [--guid GUID]]\n"
		   "       %*s [--format FORMAT | --json] [--output FILE]\n"
		   "       %*s [--dry-run] [--force] [--retry N] [-v | -q]\n"
		   "       %s -d DEVNO | --all --attest verify [--trust FILE|DIR]\n"
		   "       %*s [--format FORMAT | --json] [--output FILE]\n"
		   "       %s -d DEVNO --attest get_digests | get_certificate [--der]\n",
		PROGRAM, (int)strlen(PROGRAM), "", (int)strlen(PROGRAM), "",
		(int)strlen(PROGRAM), "", PROGRAM, (int)strlen(PROGRAM), "", PROGRAM);
}

/* Documented, and among the commands (else among their modifiers). */
static bool in_group(const struct cli_option *opt, bool commands)
{
	return opt->help && (option_command(opt->id) != CMD_NONE) == commands;
}

static void help_group(FILE *f, const char *title, bool commands)
{
	char names[64];

	fprintf(f, "%s:\n", title);
	for (unsigned int i = 0; i < tool_option_count; i++) {
		if (!in_group(&tool_options[i], commands))
			continue;
		cli_option_names(&tool_options[i], names, sizeof(names));
		fprintf(f, "  %-22s ", names);
		cli_doc_wrap(f, tool_options[i].help, 25);	/* within 80 columns */
	}
}

void print_help(FILE *f)
{
	print_usage(f);
	fprintf(f, "\nInspect and provision Intel On Demand (SDSi) sockets through\n"
		   "/sys/bus/auxiliary/devices/intel_vsec.sdsi.N.  Long options work with one or\n"
		   "two dashes.  One command per run; the last one given wins.\n\n");
	help_group(f, "Commands", true);
	fputc('\n', f);
	help_group(f, "Options", false);
	fprintf(f, "\nExit status:\n");
	for (unsigned int i = 0; i < exit_code_doc_count; i++)
	{
		/* "  0  " and "  10 ": the meanings start in one column. */
		fprintf(f, "  %-2d ", exit_code_docs[i].code);
		cli_doc_wrap(f, exit_code_docs[i].meaning, 5);
	}
}

/* roff: backslashes and dashes escaped, no line may start with a control character. */
static void roff(FILE *f, const char *text)
{
	if (*text == '.' || *text == '\'')
		fputs("\\&", f);
	for (; *text; text++) {
		if (*text == '-' || *text == '\\')
			fputc('\\', f);
		fputc(*text, f);
	}
}

/*
 * The option table's help serves --help too, where intel_sdsi(1) is another
 * document; in the page itself such a reference names the section instead.
 */
static const struct {
	const char *from, *to;
} self_references[] = {
	{ "listed in intel_sdsi(1)", "listed under PROMETHEUS METRICS below" },
};

/* roff(text) with each reference to this page replaced. */
static void roff_help(FILE *f, const char *text)
{
	char buf[2048];
	size_t len = 0;

	while (*text && len + 1 < sizeof(buf)) {
		size_t i, n = 0;

		for (i = 0; i < UTIL_ARRAY_SIZE(self_references); i++) {
			n = strlen(self_references[i].from);
			if (strncmp(text, self_references[i].from, n) == 0)
				break;
		}
		if (i < UTIL_ARRAY_SIZE(self_references)) {
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s",
						self_references[i].to);
			if (len >= sizeof(buf))
				len = sizeof(buf) - 1;
			text += n;
		} else {
			buf[len++] = *text++;
		}
	}
	buf[len] = '\0';
	roff(f, buf);
}

static void man_group(FILE *f, bool commands)
{
	const struct cli_option *opt;

	for (unsigned int i = 0; i < tool_option_count; i++) {
		opt = &tool_options[i];
		if (!in_group(opt, commands))
			continue;
		fputs(".TP\n", f);
		if (opt->short_name)
			fprintf(f, "\\fB\\-%c\\fR, ", opt->short_name);
		fputs("\\fB\\-\\-", f);
		roff(f, opt->name);
		fputs("\\fR", f);
		if (opt->arg)
			fprintf(f, " \\fI%s\\fR", opt->arg);
		fputc('\n', f);
		roff_help(f, opt->help);
		fputs(".\n", f);
	}
}

/* PROMETHEUS METRICS, from the table the output prints from. */
static void man_metrics(FILE *f)
{
	const struct prom_family *m;

	fputs(".SH PROMETHEUS METRICS\n"
	      "\\fB\\-\\-format prometheus\\fR prints the text exposition format 0.0.4, every\n"
	      "family once with its HELP and TYPE lines whatever the number of sockets.\n"
	      "The labels \\fBdevice\\fR (intel_vsec.sdsi.\\fIN\\fR), \\fBsocket\\fR (the socket\n"
	      "ID) and \\fBppin\\fR come from the registers read before each certificate.  A\n"
	      "device that fails prints \\fBsdsi_up\\fR 0 and \\fBsdsi_scrape_error\\fR 1 and\n"
	      "the run goes on; the exit status is then that of the first failure, and the\n"
	      "output (and \\fB\\-\\-output\\fR \\fIFILE\\fR) is still complete.  A socket that lacks\n"
	      "the data (metering not enabled, as on V1 parts, or the attribute absent) is\n"
	      "no failure: \\fBsdsi_up\\fR 1 and \\fBsdsi_data_available\\fR 0; so is a part\n"
	      "without attestation (bit 12 clear) asked for \\fB\\-\\-attest verify\\fR, which\n"
	      "then has no \\fBsdsi_attested\\fR sample.  Meter counters are\n"
	      "converted to seconds with the certificate's counter unit.  The families, by\n"
	      "the command that prints them (\\fIall\\fR: every command):\n", f);
	for (unsigned int i = 0; i < PROM_FAMILY_COUNT; i++) {
		m = &prom_families[i];
		fputs(".TP\n\\fB", f);
		roff(f, m->name);
		fprintf(f, "\\fR (%s, %s) {", m->type, m->command);
		roff(f, m->labels);
		fputs("}\n", f);
		roff(f, m->help);
		fputs(".\n", f);
	}
	fputs(".PP\n"
	      "The systemd timer \\fBsdsi\\-textfile.timer\\fR runs \\fBsdsi\\-textfile.service\\fR\n"
	      "every minute, which writes \\fIsdsi_COMMAND.prom\\fR for each command of\n"
	      "\\fBSDSI_TEXTFILE_COMMANDS\\fR (info state meter_current; \\fIattest\\fR runs\n"
	      "\\fB\\-\\-attest verify\\fR against \\fBSDSI_TEXTFILE_TRUST\\fR once a drop\\-in\n"
	      "gives the service /dev/isdsi\\fIN\\fR) with \\fB\\-\\-output\\fR\n"
	      "into \\fBSDSI_TEXTFILE_DIR\\fR (/var/lib/prometheus/node\\-exporter), the directory\n"
	      "of node_exporter's textfile collector; \\fBsystemctl edit\\fR changes either.\n", f);
}

void print_man_page(FILE *f)
{
	fprintf(f, ".\\\" SPDX-License-Identifier: GPL-2.0-only\n"
		   ".\\\" Generated by %s --dump-man from its option table; do not edit.\n"
		   ".TH INTEL_SDSI 1 \"\" \"sdsi %s\" \"User Commands\"\n"
		   ".SH NAME\n"
		   "intel_sdsi \\- inspect and provision Intel On Demand (SDSi) sockets\n"
		   ".SH SYNOPSIS\n"
		   ".B intel_sdsi\n"
		   "\\fB\\-l\\fR [\\fB\\-\\-json\\fR]\n"
		   ".br\n"
		   ".B intel_sdsi\n"
		   "\\fB\\-d\\fR \\fIDEVNO\\fR | \\fB\\-\\-all\\fR | \\fB\\-\\-file\\fR \\fIPATH\\fR"
		   " [\\fB\\-\\-guid\\fR \\fIGUID\\fR]"
		   " \\fB\\-i\\fR | \\fB\\-s\\fR | \\fB\\-m\\fR | \\fB\\-C\\fR"
		   " [\\fB\\-\\-format\\fR \\fItext\\fR|\\fIjson\\fR|\\fIprometheus\\fR | \\fB\\-\\-json\\fR]"
		   " [\\fB\\-\\-output\\fR \\fIFILE\\fR]\n"
		   ".br\n"
		   ".B intel_sdsi\n"
		   "\\fB\\-d\\fR \\fIDEVNO\\fR | \\fB\\-\\-all\\fR"
		   " \\fB\\-a\\fR \\fIFILE\\fR | \\fB\\-c\\fR \\fIFILE\\fR|\\fIDIR\\fR"
		   " [\\fB\\-\\-dry\\-run\\fR] [\\fB\\-\\-force\\fR] [\\fB\\-\\-retry\\fR \\fIN\\fR]"
		   " [\\fB\\-\\-json\\fR]\n"
		   ".br\n"
		   ".B intel_sdsi\n"
		   "\\fB\\-d\\fR \\fIDEVNO\\fR | \\fB\\-\\-all\\fR"
		   " \\fB\\-\\-attest\\fR \\fIverify\\fR [\\fB\\-\\-trust\\fR \\fIFILE\\fR|\\fIDIR\\fR]"
		   " [\\fB\\-\\-retry\\fR \\fIN\\fR]"
		   " [\\fB\\-\\-format\\fR \\fIFORMAT\\fR | \\fB\\-\\-json\\fR]"
		   " [\\fB\\-\\-output\\fR \\fIFILE\\fR]\n"
		   ".br\n"
		   ".B intel_sdsi\n"
		   "\\fB\\-d\\fR \\fIDEVNO\\fR"
		   " \\fB\\-\\-attest\\fR \\fIget_digests\\fR|\\fIget_certificate\\fR [\\fB\\-\\-der\\fR]\n"
		   ".SH DESCRIPTION\n"
		   "\\fBintel_sdsi\\fR reads the registers, state certificate and meter certificates of\n"
		   "Intel On Demand sockets through the sysfs files of the Linux \\fBintel_sdsi\\fR driver\n"
		   "and provisions Authentication Key Certificates (AKC) and Capability Activation\n"
		   "Payloads (CAP).  It accepts every option of the upstream Linux tool with the\n"
		   "same meaning, and adds JSON output, several sockets per run, offline decoding\n"
		   "and pre\\-flight checks that refuse a blob the socket would reject before it\n"
		   "costs one of the few provisioning attempts allowed per power cycle.\n"
		   ".PP\n"
		   "An AKC in the sdsi project's own format, and any CAP, Intel's included (read\n"
		   "by the published licence\\-blob layout), is decoded and checked: the kind of\n"
		   "blob against \\fB\\-a\\fR or \\fB\\-c\\fR, a CAP's PPIN against the socket's, and\n"
		   "both against the state certificate, so that what is already provisioned is\n"
		   "reported unchanged (exit 0) instead of written again.  A foreign blob gets the\n"
		   "generic checks only; a key, PEM or DER, is never sent.\n"
		   ".PP\n"
		   "With \\fB\\-\\-all\\fR, every socket's transactions run at the same time (each\n"
		   "socket has its own mailbox) and the results are printed in device order.\n"
		   "\\fB\\-\\-all \\-a\\fR sends the AKC to every socket; \\fB\\-\\-all \\-c\\fR \\fIDIR\\fR gives each\n"
		   "socket the CAP of \\fIDIR\\fR bound to its PPIN (or named for it in\n"
		   "\\fIDIR\\fR/MANIFEST), after its own pre\\-flight checks.  Two CAPs for one socket\n"
		   "write neither there.  The exit status is that of the first socket that failed;\n"
		   "else 5 when a socket was left without its CAP, a file of \\fIDIR\\fR unused, or\n"
		   "\\fIDIR\\fR empty, each named; 0 otherwise.\n"
		   ".PP\n"
		   "\\fB\\-\\-attest verify\\fR checks, through the part's SPDM attestation service,\n"
		   "that the state certificate is the silicon's: the certificate chain to a root\n"
		   "the owner trusts (\\fB\\-\\-trust\\fR, never a root the part sends), a\n"
		   "CHALLENGE and signed measurements with fresh nonces, and measurement 1 against\n"
		   "the state certificate read in the same run.  It prints every check and the\n"
		   "verdict; a part that fails a check exits 10, attestation that cannot run (no\n"
		   "transport, busy, permission) exits as a read would.  Nothing is written.\n"
		   "What a verdict proves, and what it does not:\n"
		   ".I \\%%/usr/share/doc/intel\\-sdsi\\-tools/attestation.md\n"
		   "(docs/attestation.md in the sources).\n"
		   ".PP\n"
		   "Long options work with one or two dashes.  One command runs per invocation;\n"
		   "when several are given the last one wins.  \\fIDEVNO\\fR is the \\fIN\\fR of\n"
		   "\\fBintel_vsec.sdsi.\\fR\\fIN\\fR, not the socket ID.\n"
		   ".SH COMMANDS\n", PROGRAM, SDSI_VERSION);
	man_group(f, true);
	fputs(".SH OPTIONS\n", f);
	man_group(f, false);
	man_metrics(f);
	fputs(".SH EXIT STATUS\n"
	      "The table shared by the sdsi programs, also in\n"
	      ".I \\%/usr/share/doc/intel\\-sdsi\\-tools/exit\\-codes.md\n"
	      "(docs/exit\\-codes.md in the sources):\n", f);
	for (unsigned int i = 0; i < exit_code_doc_count; i++) {
		fprintf(f, ".TP\n.B %d\n", exit_code_docs[i].code);
		roff(f, exit_code_docs[i].meaning);
		fputs(".\n", f);
	}
	fputs(".SH ENVIRONMENT\n"
	      ".TP\n.B SDSI_SYSFS_ROOT\n"
	      "Directory searched for \\fBintel_vsec.sdsi.\\fR\\fIN\\fR devices instead of\n"
	      "\\fI/sys/bus/auxiliary/devices\\fR, taken as \\fB\\-\\-sysfs\\-root\\fR takes its\n"
	      "\\fIDIR\\fR; \\fB\\-\\-sysfs\\-root\\fR overrides it.\n"
	      "\\fBsdsi\\-emu mount\\fR prints the value to use.\n"
	      ".SH EXAMPLES\n"
	      ".nf\n"
	      "intel_sdsi \\-l \\-\\-json\n"
	      "intel_sdsi \\-d 0 \\-i\n"
	      "intel_sdsi \\-\\-all \\-s \\-\\-json\n"
	      "intel_sdsi \\-\\-all \\-C \\-\\-format prometheus \\e\n"
	      "    \\-\\-output /var/lib/prometheus/node\\-exporter/sdsi_meter_current.prom\n"
	      "intel_sdsi \\-s \\-\\-file state.bin\n"
	      "intel_sdsi \\-d 1 \\-c socket1.cap \\-\\-dry\\-run\n"
	      "intel_sdsi \\-\\-all \\-c caps/ \\-\\-dry\\-run\n"
	      "intel_sdsi \\-\\-all \\-\\-attest verify \\-\\-json\n"
	      "intel_sdsi \\-\\-all \\-\\-attest verify \\-\\-format prometheus \\e\n"
	      "    \\-\\-output /var/lib/prometheus/node\\-exporter/sdsi_attest.prom\n"
	      "intel_sdsi \\-d 0 \\-\\-attest get_certificate \\-\\-der | \\e\n"
	      "    openssl x509 \\-inform DER \\-noout \\-subject\n"
	      ".fi\n"
	      ".SH JSON\n"
	      "With \\fB\\-\\-json\\fR every command prints one document on standard output,\n"
	      "a failure included (its message also goes to standard error, the exit\n"
	      "status is unchanged).  The documents are a versioned contract shared with\n"
	      "\\fBsdsi\\-authority inspect\\fR: each carries \\fBschema_version\\fR (now\n"
	      "\\fB" SDSI_JSON_SCHEMA_VERSION "\\fR; a new major version for an incompatible change), and\n"
	      "the JSON Schema of each command's output and of the error object is\n"
	      "installed in \\fI/usr/share/sdsi/schema/\\fR (under the installation prefix;\n"
	      "\\fIdocs/schema/\\fR in the sources), with the rules in its README.md.\n"
	      "64-bit values are 0x and 16 hex digits; the License Key Image is 0x and\n"
	      "96 hex digits, byte 47 first, as in the text output.\n"
	      ".SH SEE ALSO\n"
	      ".BR sdsi\\-authority (1),\n"
	      ".BR sdsi\\-emu (1)\n", f);
}

static void completion_words(FILE *f, bool with_args)
{
	const struct cli_option *opt;
	const char *sep = "";

	for (unsigned int i = 0; i < tool_option_count; i++) {
		opt = &tool_options[i];
		if (!opt->help || (opt->arg != NULL) != with_args)
			continue;
		if (opt->short_name) {
			fprintf(f, "%s-%c", sep, opt->short_name);
			sep = " ";
		}
		fprintf(f, "%s--%s", sep, opt->name);
		sep = " ";
	}
}

/*
 * "\t-a|--akc|-akc|--cap|..." for a case label, the options whose argument
 * the shell completes as kind; one dash works too.
 */
static void completion_case(FILE *f, enum cli_complete kind)
{
	const struct cli_option *opt;
	const char *sep = "\t";

	for (unsigned int i = 0; i < tool_option_count; i++) {
		opt = &tool_options[i];
		if (!opt->arg || opt->complete != kind)
			continue;
		if (opt->short_name)
			fprintf(f, "%s-%c", sep, opt->short_name);
		else
			fputs(sep, f);
		fprintf(f, "%s--%s|-%s", opt->short_name ? "|" : "", opt->name, opt->name);
		sep = "|";
	}
}

/* Each option whose argument is a word of its list (--format, --attest): a case of its own. */
static void completion_words_cases(FILE *f)
{
	const struct cli_option *opt;

	for (unsigned int i = 0; i < tool_option_count; i++) {
		opt = &tool_options[i];
		if (!opt->arg || opt->complete != CLI_ARG_WORDS)
			continue;
		fprintf(f, "\t--%s|-%s)\n\t\tCOMPREPLY=( $(compgen -W \"%s\" -- \"$cur\") )\n"
			   "\t\treturn ;;\n", opt->name, opt->name, opt->words);
	}
}

void print_bash_completion(FILE *f)
{
	fprintf(f, "# SPDX-License-Identifier: GPL-2.0-only\n"
		   "# bash completion for intel_sdsi, generated by %s --dump-bash-completion\n"
		   "# from its option table; do not edit.\n"
		   "_intel_sdsi()\n{\n"
		   "\tlocal cur=\"${COMP_WORDS[COMP_CWORD]}\"\n"
		   "\tlocal prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
		   "\tlocal root=\"${SDSI_SYSFS_ROOT:-%s}\"\n\n"
		   "\tcase \"$prev\" in\n", PROGRAM, SDSI_DEFAULT_SYSFS_ROOT);
	completion_case(f, CLI_ARG_DEVICE);
	fputs(")\n\t\tlocal d devnos=\n"
	      "\t\tfor d in \"$root\"/" SDSI_DEVICE_PREFIX "*; do\n"
	      "\t\t\t[ -e \"$d\" ] && devnos+=\" ${d##*.}\"\n"
	      "\t\tdone\n"
	      "\t\tCOMPREPLY=( $(compgen -W \"$devnos\" -- \"$cur\") )\n"
	      "\t\treturn ;;\n", f);
	completion_case(f, CLI_ARG_FILE);
	fputs(")\n\t\tcompopt -o filenames 2>/dev/null\n"
	      "\t\tCOMPREPLY=( $(compgen -f -- \"$cur\") )\n"
	      "\t\treturn ;;\n", f);
	completion_words_cases(f);
	completion_case(f, CLI_ARG_NONE);
	fputs(")\n\t\treturn ;;\n\tesac\n\n\tCOMPREPLY=( $(compgen -W \"", f);
	completion_words(f, false);
	fputc(' ', f);
	completion_words(f, true);
	fprintf(f, "\" -- \"$cur\") )\n}\ncomplete -F _intel_sdsi %s\n", PROGRAM);
}
