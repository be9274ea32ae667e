// SPDX-License-Identifier: GPL-2.0-only
/*
 * The metric families of --format prometheus, in the order they are printed.
 * Names follow Prometheus conventions: the sdsi_ prefix, snake_case, the
 * unit in the name (seconds, the base unit), _total on counters only.  The
 * failure counts are gauges: a power cycle resets them.  sdsi_up and
 * sdsi_scrape_error carry a command label so that the files of several
 * commands can sit side by side in one textfile collector directory.
 */
#include "prom_metrics.h"

#define SOCKET "device,socket,ppin"

const struct prom_family prom_families[PROM_FAMILY_COUNT] = {
	[PROM_UP] = { "sdsi_up", "gauge", "all", "command,device",
		"1 when the command read and decoded the device, 0 when it failed" },
	[PROM_SCRAPE_ERROR] = { "sdsi_scrape_error", "gauge", "all", "command,device,reason",
		"1 for a device the command failed on; reason is the errno name, the message is on stderr" },
	[PROM_DATA_AVAILABLE] = { "sdsi_data_available", "gauge", "state meter meter_current attest",
		SOCKET ",data",
		"1 when the socket offers the data the command reads (data is the command), 0 when the part lacks it (metering not enabled, no such attribute, or attestation not enabled): sdsi_up stays 1" },
	[PROM_SOCKET_INFO] = { "sdsi_socket_info", "gauge", "info", SOCKET ",guid",
		"Always 1: the socket ID, PPIN and GUID of an On Demand device" },
	[PROM_ON_DEMAND_ENABLED] = { "sdsi_on_demand_enabled", "gauge", "info", SOCKET,
		"1 when the On Demand feature is enabled" },
	[PROM_ATTESTATION_ENABLED] = { "sdsi_attestation_enabled", "gauge", "info", SOCKET,
		"1 when attestation is enabled" },
	[PROM_METERING_ENABLED] = { "sdsi_metering_enabled", "gauge", "info", SOCKET,
		"1 when metering is enabled" },
	[PROM_AKC_PROVISIONED] = { "sdsi_akc_provisioned", "gauge", "info", SOCKET,
		"1 when an authentication key certificate (AKC) is provisioned" },
	[PROM_PROV_FAILURES] = { "sdsi_provisioning_failures", "gauge", "info", SOCKET ",kind",
		"Failed AKC or CAP authorizations since the last power cycle" },
	[PROM_PROV_FAILURE_THRESHOLD] = { "sdsi_provisioning_failure_threshold", "gauge", "info",
		SOCKET ",kind",
		"Failures of a kind after which provisioning it is refused until a power cycle" },
	[PROM_UPDATES_AVAILABLE] = { "sdsi_provisioning_updates_available", "gauge", "info",
		SOCKET, "Provisioning updates left in this power cycle" },
	[PROM_UPDATES_THRESHOLD] = { "sdsi_provisioning_updates_threshold", "gauge", "info",
		SOCKET, "Provisioning updates allowed per power cycle" },
	[PROM_NVRAM_LIMIT_REACHED] = { "sdsi_nvram_limit_reached", "gauge", "info",
		SOCKET ",percent", "1 when this percentage of the NVRAM write endurance is used" },
	[PROM_AUTH_ERROR] = { "sdsi_auth_error", "gauge", "info", SOCKET ",kind",
		"1 when the NVRAM content (AKC, CAP) or the metering failed authorization" },
	[PROM_KEY_PROVISIONED] = { "sdsi_state_key_provisioned", "gauge", "state", SOCKET,
		"1 when the state certificate holds a license key (AKC)" },
	[PROM_KEY_REVISION] = { "sdsi_state_key_revision", "gauge", "state", SOCKET,
		"License key revision ID of the provisioned AKC" },
	[PROM_LICENSE_SLOTS] = { "sdsi_state_licenses", "gauge", "state", SOCKET,
		"License blobs in the state certificate, valid or not" },
	[PROM_LICENSE_VALID] = { "sdsi_license_valid", "gauge", "state",
		SOCKET ",index,id,type", "1 when the license blob is valid; id and type empty for an empty slot" },
	[PROM_LICENSE_REVISION] = { "sdsi_license_revision", "gauge", "state", SOCKET ",index,id",
		"Revision ID of the license blob" },
	[PROM_LICENSE_FEATURE] = { "sdsi_license_feature_info", "gauge", "state",
		SOCKET ",index,id,feature", "Always 1: a feature the license blob grants" },
	[PROM_METER_FEATURE] = { "sdsi_meter_certificate_feature_seconds_total", "counter", "meter",
		SOCKET ",feature", "Feature usage counter of the attested meter certificate, in seconds" },
	[PROM_METER_REFERENCE] = { "sdsi_meter_certificate_reference_seconds_total", "counter",
		"meter", SOCKET, "Master reference counter (power-on time) of the attested meter certificate, in seconds" },
	[PROM_CURRENT_FEATURE] = { "sdsi_meter_current_feature_seconds_total", "counter",
		"meter_current", SOCKET ",feature", "Live feature usage counter, in seconds" },
	[PROM_CURRENT_REFERENCE] = { "sdsi_meter_current_reference_seconds_total", "counter",
		"meter_current", SOCKET, "Live master reference counter (power-on time), in seconds" },
	[PROM_ATTESTED] = { "sdsi_attested", "gauge", "attest", SOCKET ",check",
		"1 when the part passed attestation against the trusted roots, 0 when it failed; check is the first failed check, empty when attested" },
};
