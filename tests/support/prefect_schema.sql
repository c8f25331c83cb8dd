-- Prefect 3.9.1's test-server database: made by `python -m tests.support.prefect_server`
BEGIN TRANSACTION;
CREATE TABLE agent (
	id CHAR(36) DEFAULT (
    (
        lower(hex(randomblob(4))) 
        || '-' 
        || lower(hex(randomblob(2))) 
        || '-4' 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || substr('89ab',abs(random()) % 4 + 1, 1) 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || lower(hex(randomblob(6)))
    )
    ) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	name VARCHAR NOT NULL, 
	last_activity_time DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	work_queue_id CHAR(36) NOT NULL, 
	CONSTRAINT pk_agent PRIMARY KEY (id), 
	CONSTRAINT fk_agent__work_queue_id__work_queue FOREIGN KEY(work_queue_id) REFERENCES work_queue (id), 
	CONSTRAINT uq_agent__name UNIQUE (name)
);
CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);
INSERT INTO "alembic_version" VALUES('27d8f4e1a6c9');
CREATE TABLE "artifact" (
	id CHAR(36) DEFAULT ((
        lower(hex(randomblob(4)))
        || '-'
        || lower(hex(randomblob(2)))
        || '-4'
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || substr('89ab',abs(random()) % 4 + 1, 1)
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || lower(hex(randomblob(6)))
    )) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	"key" VARCHAR, 
	type VARCHAR, 
	data JSON, 
	metadata_ JSON, 
	task_run_id CHAR(36), 
	flow_run_id CHAR(36), description VARCHAR, 
	CONSTRAINT pk_artifact PRIMARY KEY (id)
);
CREATE TABLE artifact_collection (
	id CHAR(36) DEFAULT (
    (
        lower(hex(randomblob(4)))
        || '-'
        || lower(hex(randomblob(2)))
        || '-4'
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || substr('89ab',abs(random()) % 4 + 1, 1)
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || lower(hex(randomblob(6)))
    )
    ) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	"key" VARCHAR NOT NULL, 
	latest_id CHAR(36) NOT NULL, task_run_id CHAR(36), flow_run_id CHAR(36), type VARCHAR, data JSON, description VARCHAR, metadata_ JSON, 
	CONSTRAINT pk_artifact_collection PRIMARY KEY (id), 
	CONSTRAINT uq_artifact_collection__key UNIQUE ("key")
);
CREATE TABLE automation (
	name VARCHAR NOT NULL, 
	description VARCHAR NOT NULL, 
	enabled BOOLEAN DEFAULT '1' NOT NULL, 
	"trigger" JSON NOT NULL, 
	actions JSON NOT NULL, 
	actions_on_trigger JSON DEFAULT '[]' NOT NULL, 
	actions_on_resolve JSON DEFAULT '[]' NOT NULL, 
	id CHAR(36) DEFAULT (
    (
        lower(hex(randomblob(4)))
        || '-'
        || lower(hex(randomblob(2)))
        || '-4'
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || substr('89ab',abs(random()) % 4 + 1, 1)
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || lower(hex(randomblob(6)))
    )
    ) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, tags JSON DEFAULT '[]' NOT NULL, 
	CONSTRAINT pk_automation PRIMARY KEY (id)
);
CREATE TABLE "automation_bucket" (
	automation_id CHAR(36) NOT NULL, 
	trigger_id CHAR(36) NOT NULL, 
	bucketing_key JSON NOT NULL, 
	last_event JSON, 
	start DATETIME NOT NULL, 
	"end" DATETIME NOT NULL, 
	count INTEGER NOT NULL, 
	last_operation VARCHAR, 
	triggered_at DATETIME, 
	id CHAR(36) DEFAULT ((
        lower(hex(randomblob(4)))
        || '-'
        || lower(hex(randomblob(2)))
        || '-4'
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || substr('89ab',abs(random()) % 4 + 1, 1)
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || lower(hex(randomblob(6)))
    )) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	CONSTRAINT pk_automation_bucket PRIMARY KEY (id), 
	CONSTRAINT fk_automation_bucket__automation_id__automation FOREIGN KEY(automation_id) REFERENCES automation (id) ON DELETE CASCADE
);
CREATE TABLE "automation_event_follower" (
	leader_event_id CHAR(36) NOT NULL, 
	follower_event_id CHAR(36) NOT NULL, 
	received DATETIME NOT NULL, 
	follower JSON NOT NULL, 
	id CHAR(36) DEFAULT ((
        lower(hex(randomblob(4)))
        || '-'
        || lower(hex(randomblob(2)))
        || '-4'
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || substr('89ab',abs(random()) % 4 + 1, 1)
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || lower(hex(randomblob(6)))
    )) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	scope VARCHAR NOT NULL, 
	CONSTRAINT pk_automation_event_follower PRIMARY KEY (id)
);
CREATE TABLE automation_held_event (
	automation_id CHAR(36) NOT NULL, 
	trigger_id CHAR(36) NOT NULL, 
	bucketing_key JSON DEFAULT '[]' NOT NULL, 
	event_id CHAR(36) NOT NULL, 
	occurred DATETIME NOT NULL, 
	id CHAR(36) DEFAULT (
    (
        lower(hex(randomblob(4)))
        || '-'
        || lower(hex(randomblob(2)))
        || '-4'
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || substr('89ab',abs(random()) % 4 + 1, 1)
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || lower(hex(randomblob(6)))
    )
    ) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	CONSTRAINT pk_automation_held_event PRIMARY KEY (id), 
	CONSTRAINT fk_automation_held_event__automation_id__automation FOREIGN KEY(automation_id) REFERENCES automation (id) ON DELETE CASCADE
);
CREATE TABLE automation_related_resource (
	automation_id CHAR(36) NOT NULL, 
	resource_id VARCHAR, 
	automation_owned_by_resource BOOLEAN DEFAULT '0' NOT NULL, 
	id CHAR(36) DEFAULT (
    (
        lower(hex(randomblob(4)))
        || '-'
        || lower(hex(randomblob(2)))
        || '-4'
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || substr('89ab',abs(random()) % 4 + 1, 1)
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || lower(hex(randomblob(6)))
    )
    ) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	CONSTRAINT pk_automation_related_resource PRIMARY KEY (id), 
	CONSTRAINT fk_automation_related_resource__automation_id__automation FOREIGN KEY(automation_id) REFERENCES automation (id) ON DELETE CASCADE
);
CREATE TABLE "block_document" (
	id CHAR(36) DEFAULT ((
        lower(hex(randomblob(4))) 
        || '-' 
        || lower(hex(randomblob(2))) 
        || '-4' 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || substr('89ab',abs(random()) % 4 + 1, 1) 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || lower(hex(randomblob(6)))
    )) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	name VARCHAR NOT NULL, 
	data JSON DEFAULT '{}' NOT NULL, 
	block_schema_id CHAR(36) NOT NULL, 
	block_type_id CHAR(36) NOT NULL, 
	is_anonymous BOOLEAN DEFAULT '0' NOT NULL, block_type_name VARCHAR, 
	CONSTRAINT pk_block_document PRIMARY KEY (id), 
	CONSTRAINT fk_block__block_schema_id__block_schema FOREIGN KEY(block_schema_id) REFERENCES block_schema (id) ON DELETE CASCADE, 
	CONSTRAINT fk_block_document__block_type_id__block_type FOREIGN KEY(block_type_id) REFERENCES block_type (id) ON DELETE CASCADE
);
CREATE TABLE "block_document_reference" (
	id CHAR(36) DEFAULT ((
        lower(hex(randomblob(4))) 
        || '-' 
        || lower(hex(randomblob(2))) 
        || '-4' 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || substr('89ab',abs(random()) % 4 + 1, 1) 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || lower(hex(randomblob(6)))
    )) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	name VARCHAR NOT NULL, 
	parent_block_document_id CHAR(36) NOT NULL, 
	reference_block_document_id CHAR(36) NOT NULL, 
	CONSTRAINT pk_block_document_reference PRIMARY KEY (id), 
	CONSTRAINT fk_block_document_reference__parent_block_document_id__block_document FOREIGN KEY(parent_block_document_id) REFERENCES block_document (id) ON DELETE CASCADE, 
	CONSTRAINT fk_block_document_reference__reference_block_document_id__block_document FOREIGN KEY(reference_block_document_id) REFERENCES block_document (id) ON DELETE CASCADE, 
	CONSTRAINT ck_block_document_reference__ck_block_document_reference__no_self_reference CHECK (parent_block_document_id != reference_block_document_id)
);
CREATE TABLE "block_schema" (
	id CHAR(36) DEFAULT ((
        lower(hex(randomblob(4))) 
        || '-' 
        || lower(hex(randomblob(2))) 
        || '-4' 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || substr('89ab',abs(random()) % 4 + 1, 1) 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || lower(hex(randomblob(6)))
    )) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	fields JSON DEFAULT '{}' NOT NULL, 
	block_type_id CHAR(36) NOT NULL, 
	checksum VARCHAR NOT NULL, 
	capabilities JSON DEFAULT '[]' NOT NULL, version VARCHAR DEFAULT 'non-versioned' NOT NULL, 
	CONSTRAINT pk_block_schema PRIMARY KEY (id), 
	CONSTRAINT fk_block_schema__block_type_id__block_type FOREIGN KEY(block_type_id) REFERENCES block_type (id) ON DELETE CASCADE
);
INSERT INTO "block_schema" VALUES('96e46eeb-20f5-439c-93be-c93163dbe60a','2026-12-06 04:42:14.265719','2026-12-06 04:42:14.265766','{"block_type_slug": "webhook", "description": "Block that enables calling webhooks.", "properties": {"method": {"default": "POST", "description": "The webhook request method. Defaults to `POST`.", "enum": ["GET", "POST", "PUT", "PATCH", "DELETE"], "title": "Method", "type": "string", "position": 0}, "url": {"description": "The webhook URL.", "examples": ["https://hooks.slack.com/XXX"], "format": "password", "title": "Webhook URL", "type": "string", "writeOnly": true, "position": 1}, "headers": {"description": "A dictionary of headers to send with the webhook request.", "title": "Webhook Headers", "type": "object", "position": 2}, "allow_private_urls": {"default": true, "description": "Whether to allow notifications to private URLs. Defaults to True.", "title": "Allow Private Urls", "type": "boolean", "position": 3}, "verify": {"default": true, "description": "Whether or not to enforce a secure connection to the webhook.", "title": "Verify", "type": "boolean", "position": 4}}, "required": ["url"], "secret_fields": ["url", "headers.*"], "title": "Webhook", "type": "object"}','eb900621-f64d-4044-a3e7-554ab56458a3','sha256:58bb03f0d84592252ad568ed9a8c899792ae5d0ad2dd4a2428e99674f9050cf1','[]','3.9.1');
INSERT INTO "block_schema" VALUES('15be7b36-981c-48f6-bcff-0f4c4b4508c6','2026-12-06 04:42:14.285027','2026-12-06 04:42:14.285086','{"block_type_slug": "secret", "description": "A block that represents a secret value. The value stored in this block will be obfuscated when this block is viewed or edited in the UI.", "properties": {"value": {"anyOf": [{"format": "password", "type": "string", "writeOnly": true}, {"title": "string", "type": "string"}, {"$ref": "#/definitions/JsonValue", "title": "JSON"}], "description": "A value that should be kept secret.", "examples": ["sk-1234567890", {"password": "s3cr3t", "username": "johndoe"}], "format": "password", "title": "Value", "writeOnly": true, "position": 0}}, "required": ["value"], "secret_fields": ["value", "value"], "title": "Secret", "type": "object"}','a029bb58-5a65-4e0a-986c-89956648ce20','sha256:c078ed9c1e813e224c0b353d7ad4564a11d51d3198d9ac0686478165a1911c78','[]','3.9.1');
INSERT INTO "block_schema" VALUES('528727a3-235d-48a0-988b-aa8db977c877','2026-12-06 04:42:14.302386','2026-12-06 04:42:14.302439','{"block_type_slug": "local-file-system", "description": "Store data as a file on a local file system.", "properties": {"basepath": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "description": "Default local path for this block to write to.", "title": "Basepath", "position": 0}}, "secret_fields": [], "title": "LocalFileSystem", "type": "object"}','ba45ef1c-36ab-400c-8efc-639a403a118f','sha256:0fc8b7f936f38f465715ef2df4a817ac9fe38b80bb01d5c6c9649a6da6ae6971','["get-directory", "write-path", "put-directory", "read-path"]','3.9.1');
INSERT INTO "block_schema" VALUES('4c190006-0cfd-4b91-8b84-ff0aed43c135','2026-12-06 04:42:14.328998','2026-12-06 04:42:14.329052','{"block_type_slug": "slack-webhook", "description": "Enables sending notifications via a provided Slack webhook.\n\nSupports both standard Slack webhooks (hooks.slack.com) and Slack GovCloud\nwebhooks (hooks.slack-gov.com).", "properties": {"notify_type": {"default": "info", "description": "The type of notification being performed.", "enum": ["info", "success", "warning", "failure"], "title": "Notify Type", "type": "string", "position": 0}, "url": {"description": "Slack incoming webhook URL used to send notifications.", "examples": ["https://hooks.slack.com/XXX"], "format": "password", "title": "Webhook URL", "type": "string", "writeOnly": true, "position": 1}, "allow_private_urls": {"default": true, "description": "Whether to allow notifications to private URLs. Defaults to True.", "title": "Allow Private Urls", "type": "boolean", "position": 2}}, "required": ["url"], "secret_fields": ["url"], "title": "SlackWebhook", "type": "object"}','c4c7f3a7-aab0-4771-ab16-8860cab4826b','sha256:415bae7e5906d98e387f8848ccdfd3f3b9cdf01624f08ca228709e1193ac005f','["notify"]','3.9.1');
INSERT INTO "block_schema" VALUES('7d3b1f12-5ea5-4b87-89f7-b99f5f9454c4','2026-12-06 04:42:14.352067','2026-12-06 04:42:14.352125','{"block_type_slug": "ms-teams-webhook", "description": "Enables sending notifications via a provided Microsoft Teams webhook.", "properties": {"notify_type": {"default": "info", "description": "The type of notification being performed.", "enum": ["info", "success", "warning", "failure"], "title": "Notify Type", "type": "string", "position": 0}, "url": {"description": "The Microsoft Power Automate (Workflows) URL used to send notifications to Teams.", "examples": ["https://prod-NO.LOCATION.logic.azure.com:443/workflows/WFID/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=SIGNATURE"], "format": "password", "title": "Webhook URL", "type": "string", "writeOnly": true, "position": 1}, "allow_private_urls": {"default": true, "description": "Whether to allow notifications to private URLs. Defaults to True.", "title": "Allow Private Urls", "type": "boolean", "position": 2}, "include_image": {"default": true, "description": "Include an image with the notification.", "title": "Include Image", "type": "boolean", "position": 3}, "wrap": {"default": true, "description": "Wrap the notification text.", "title": "Wrap", "type": "boolean", "position": 4}}, "required": ["url"], "secret_fields": ["url"], "title": "MicrosoftTeamsWebhook", "type": "object"}','66d8bf8b-1eac-4239-97ab-0f3d6f264b6c','sha256:213ff858fcad8ecddb90a120636c5461fc8ad6fb2877188c9e79f07e6c390c7c','["notify"]','3.9.1');
INSERT INTO "block_schema" VALUES('bb376195-b5a1-48ee-a8e1-c186f34c8aa3','2026-12-06 04:42:14.372075','2026-12-06 04:42:14.372131','{"block_type_slug": "pager-duty-webhook", "description": "Enables sending notifications via a provided PagerDuty webhook.", "properties": {"notify_type": {"default": "info", "description": "The severity of the notification.", "enum": ["info", "success", "warning", "failure"], "title": "Notify Type", "type": "string", "position": 0}, "integration_key": {"description": "This can be found on the Events API V2 integration''s detail page, and is also referred to as a Routing Key. This must be provided alongside `api_key`, but will error if provided alongside `url`.", "format": "password", "title": "Integration Key", "type": "string", "writeOnly": true, "position": 1}, "api_key": {"description": "This can be found under Integrations. This must be provided alongside `integration_key`, but will error if provided alongside `url`.", "format": "password", "title": "API Key", "type": "string", "writeOnly": true, "position": 2}, "source": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": "Prefect", "description": "The source string as part of the payload.", "title": "Source", "position": 3}, "component": {"default": "Notification", "description": "The component string as part of the payload.", "title": "Component", "type": "string", "position": 4}, "group": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "description": "The group string as part of the payload.", "title": "Group", "position": 5}, "class_id": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "description": "The class string as part of the payload.", "title": "Class ID", "position": 6}, "region_name": {"default": "us", "description": "The region name.", "enum": ["us", "eu"], "title": "Region Name", "type": "string", "position": 7}, "clickable_url": {"anyOf": [{"format": "uri", "minLength": 1, "type": "string"}, {"type": "null"}], "default": null, "description": "A clickable URL to associate with the notice.", "title": "Clickable URL", "position": 8}, "include_image": {"default": true, "description": "Associate the notification status via a represented icon.", "title": "Include Image", "type": "boolean", "position": 9}, "custom_details": {"anyOf": [{"additionalProperties": {"type": "string"}, "type": "object"}, {"type": "null"}], "default": null, "description": "Additional details to include as part of the payload.", "examples": ["{\"disk_space_left\": \"145GB\"}"], "title": "Custom Details", "position": 10}}, "required": ["integration_key", "api_key"], "secret_fields": ["integration_key", "api_key"], "title": "PagerDutyWebHook", "type": "object"}','4c88e8df-b006-4556-b740-aa960c7da711','sha256:78ccfd9313655493e834f59f515865f3160bd395b6003d6e664fefd1a6f49c86','["notify"]','3.9.1');
INSERT INTO "block_schema" VALUES('88c2a45a-ce5a-4d27-8633-855a6f9ec825','2026-12-06 04:42:14.394469','2026-12-06 04:42:14.394524','{"block_type_slug": "twilio-sms", "description": "Enables sending notifications via Twilio SMS.", "properties": {"notify_type": {"default": "info", "description": "The type of notification being performed.", "enum": ["info", "success", "warning", "failure"], "title": "Notify Type", "type": "string", "position": 0}, "account_sid": {"description": "The Twilio Account SID - it can be found on the homepage of the Twilio console.", "title": "Account Sid", "type": "string", "position": 1}, "auth_token": {"description": "The Twilio Authentication Token - it can be found on the homepage of the Twilio console.", "format": "password", "title": "Auth Token", "type": "string", "writeOnly": true, "position": 2}, "from_phone_number": {"description": "The valid Twilio phone number to send the message from.", "examples": ["18001234567"], "title": "From Phone Number", "type": "string", "position": 3}, "to_phone_numbers": {"description": "A list of valid Twilio phone number(s) to send the message to.", "examples": ["[\"18004242424\", \"18004242425\"]"], "items": {"type": "string"}, "title": "To Phone Numbers", "type": "array", "position": 4}}, "required": ["account_sid", "auth_token", "from_phone_number", "to_phone_numbers"], "secret_fields": ["auth_token"], "title": "TwilioSMS", "type": "object"}','341e38e8-c91f-4f0c-8636-83419b23be70','sha256:2ab73fedd20ff1c25ffcc47f5b4a7a86c70c307321af1262f9d03defba5c8cc6','["notify"]','3.9.1');
INSERT INTO "block_schema" VALUES('49d162e4-f476-404b-b21e-019803c9ed4c','2026-12-06 04:42:14.422728','2026-12-06 04:42:14.422789','{"block_type_slug": "opsgenie-webhook", "description": "Enables sending notifications via a provided Opsgenie webhook.", "properties": {"notify_type": {"default": "info", "description": "The type of notification being performed.", "enum": ["info", "success", "warning", "failure"], "title": "Notify Type", "type": "string", "position": 0}, "apikey": {"description": "The API Key associated with your Opsgenie account.", "format": "password", "title": "API Key", "type": "string", "writeOnly": true, "position": 1}, "target_user": {"anyOf": [{"items": {"type": "string"}, "type": "array"}, {"type": "null"}], "default": null, "description": "The user(s) you wish to notify.", "title": "Target User", "position": 2}, "target_team": {"anyOf": [{"items": {"type": "string"}, "type": "array"}, {"type": "null"}], "default": null, "description": "The team(s) you wish to notify.", "title": "Target Team", "position": 3}, "target_schedule": {"anyOf": [{"items": {"type": "string"}, "type": "array"}, {"type": "null"}], "default": null, "description": "The schedule(s) you wish to notify.", "title": "Target Schedule", "position": 4}, "target_escalation": {"anyOf": [{"items": {"type": "string"}, "type": "array"}, {"type": "null"}], "default": null, "description": "The escalation(s) you wish to notify.", "title": "Target Escalation", "position": 5}, "region_name": {"default": "us", "description": "The 2-character region code.", "enum": ["us", "eu"], "title": "Region Name", "type": "string", "position": 6}, "batch": {"default": false, "description": "Notify all targets in batches (instead of individually).", "title": "Batch", "type": "boolean", "position": 7}, "tags": {"anyOf": [{"items": {"type": "string"}, "type": "array"}, {"type": "null"}], "default": null, "description": "A comma-separated list of tags you can associate with your Opsgenie message.", "examples": ["[\"tag1\", \"tag2\"]"], "title": "Tags", "position": 8}, "priority": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": 3, "description": "The priority to associate with the message. It is on a scale between 1 (LOW) and 5 (EMERGENCY).", "title": "Priority", "position": 9}, "alias": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "description": "The alias to associate with the message.", "title": "Alias", "position": 10}, "entity": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "description": "The entity to associate with the message.", "title": "Entity", "position": 11}, "details": {"anyOf": [{"additionalProperties": {"type": "string"}, "type": "object"}, {"type": "null"}], "default": null, "description": "Additional details composed of key/values pairs.", "examples": ["{\"key1\": \"value1\", \"key2\": \"value2\"}"], "title": "Details", "position": 12}}, "required": ["apikey"], "secret_fields": ["apikey"], "title": "OpsgenieWebhook", "type": "object"}','e139fe62-e27a-4e27-985d-adca95c0cb89','sha256:c9d307a75b69d82460134069d071804fefde0ec2c2b9aed67c90201fee041755','["notify"]','3.9.1');
INSERT INTO "block_schema" VALUES('c4ed2d24-88e9-4ac3-b5a9-ce6124c5986b','2026-12-06 04:42:14.444716','2026-12-06 04:42:14.444759','{"block_type_slug": "mattermost-webhook", "description": "Enables sending notifications via a provided Mattermost webhook.", "properties": {"notify_type": {"default": "info", "description": "The type of notification being performed.", "enum": ["info", "success", "warning", "failure"], "title": "Notify Type", "type": "string", "position": 0}, "hostname": {"description": "The hostname of your Mattermost server.", "examples": ["Mattermost.example.com"], "title": "Hostname", "type": "string", "position": 1}, "secure": {"default": false, "description": "Whether to use secure https connection.", "title": "Secure", "type": "boolean", "position": 2}, "token": {"description": "The token associated with your Mattermost webhook.", "format": "password", "title": "Token", "type": "string", "writeOnly": true, "position": 3}, "botname": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "description": "The name of the bot that will send the message.", "title": "Bot name", "position": 4}, "channels": {"anyOf": [{"items": {"type": "string"}, "type": "array"}, {"type": "null"}], "default": null, "description": "The channel(s) you wish to notify.", "title": "Channels", "position": 5}, "include_image": {"default": false, "description": "Whether to include the Apprise status image in the message.", "title": "Include Image", "type": "boolean", "position": 6}, "path": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "description": "An optional sub-path specification to append to the hostname.", "title": "Path", "position": 7}, "port": {"default": 8065, "description": "The port of your Mattermost server.", "title": "Port", "type": "integer", "position": 8}}, "required": ["hostname", "token"], "secret_fields": ["token"], "title": "MattermostWebhook", "type": "object"}','9c33c0bb-3638-4127-a56a-1aa9a3e7093c','sha256:34daad1160b59fb6d5c8fc59d09abb2cbf9c2283b7b9f6a76cbaad827002d14c','["notify"]','3.9.1');
INSERT INTO "block_schema" VALUES('69e18c87-4f99-4be8-bf3a-f872e11f3d97','2026-12-06 04:42:14.463583','2026-12-06 04:42:14.463642','{"block_type_slug": "discord-webhook", "description": "Enables sending notifications via a provided Discord webhook.", "properties": {"notify_type": {"default": "info", "description": "The type of notification being performed.", "enum": ["info", "success", "warning", "failure"], "title": "Notify Type", "type": "string", "position": 0}, "webhook_id": {"description": "The first part of 2 tokens provided to you after creating a incoming-webhook.", "format": "password", "title": "Webhook Id", "type": "string", "writeOnly": true, "position": 1}, "webhook_token": {"description": "The second part of 2 tokens provided to you after creating a incoming-webhook.", "format": "password", "title": "Webhook Token", "type": "string", "writeOnly": true, "position": 2}, "botname": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "description": "Identify the name of the bot that should issue the message. If one isn''t specified then the default is to just use your account (associated with the incoming-webhook).", "title": "Bot name", "position": 3}, "tts": {"default": false, "description": "Whether to enable Text-To-Speech.", "title": "Tts", "type": "boolean", "position": 4}, "include_image": {"default": false, "description": "Whether to include an image in-line with the message describing the notification type.", "title": "Include Image", "type": "boolean", "position": 5}, "avatar": {"default": false, "description": "Whether to override the default discord avatar icon.", "title": "Avatar", "type": "boolean", "position": 6}, "avatar_url": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "description": "Over-ride the default discord avatar icon URL. By default this is not set and Apprise chooses the URL dynamically based on the type of message (info, success, warning, or error).", "title": "Avatar URL", "position": 7}}, "required": ["webhook_id", "webhook_token"], "secret_fields": ["webhook_id", "webhook_token"], "title": "DiscordWebhook", "type": "object"}','e137a6b9-56c2-44bf-85e8-717395025275','sha256:b3ea94c0ce1573b22c0e7bf2457f5f52a210327e0f7be05c74970a246304b1e2','["notify"]','3.9.1');
INSERT INTO "block_schema" VALUES('fe98e112-d0d7-40c3-b506-c7adbf714140','2026-12-06 04:42:14.488263','2026-12-06 04:42:14.488315','{"block_type_slug": "custom-webhook", "description": "Enables sending notifications via any custom webhook.\n\nAll nested string param contains `{{key}}` will be substituted with value from context/secrets.\n\nContext values include: `subject`, `body` and `name`.", "properties": {"name": {"description": "Name of the webhook.", "title": "Name", "type": "string", "position": 0}, "url": {"description": "The webhook URL.", "examples": ["https://hooks.slack.com/XXX"], "title": "Webhook URL", "type": "string", "position": 1}, "method": {"default": "POST", "description": "The webhook request method. Defaults to `POST`.", "enum": ["GET", "POST", "PUT", "PATCH", "DELETE"], "title": "Method", "type": "string", "position": 2}, "params": {"anyOf": [{"additionalProperties": {"type": "string"}, "type": "object"}, {"type": "null"}], "default": null, "description": "Custom query params.", "title": "Query Params", "position": 3}, "json_data": {"anyOf": [{"additionalProperties": true, "type": "object"}, {"type": "null"}], "default": null, "description": "Send json data as payload.", "examples": ["{\"text\": \"{{subject}}\\n{{body}}\", \"title\": \"{{name}}\", \"token\": \"{{tokenFromSecrets}}\"}"], "title": "JSON Data", "position": 4}, "form_data": {"anyOf": [{"additionalProperties": {"type": "string"}, "type": "object"}, {"type": "string"}, {"type": "null"}], "default": null, "description": "Send form data as payload. Should not be used together with _JSON Data_. Can be a dictionary for form-encoded data or a string for raw body content.", "examples": ["{\"text\": \"{{subject}}\\n{{body}}\", \"title\": \"{{name}}\", \"token\": \"{{tokenFromSecrets}}\"}"], "title": "Form Data", "position": 5}, "headers": {"anyOf": [{"additionalProperties": {"type": "string"}, "type": "object"}, {"type": "null"}], "default": null, "description": "Custom headers.", "title": "Headers", "position": 6}, "cookies": {"anyOf": [{"additionalProperties": {"type": "string"}, "type": "object"}, {"type": "null"}], "default": null, "description": "Custom cookies.", "title": "Cookies", "position": 7}, "timeout": {"default": 10, "description": "Request timeout in seconds. Defaults to 10.", "title": "Timeout", "type": "number", "position": 8}, "allow_private_urls": {"default": true, "description": "Whether to allow notifications to private URLs. Defaults to True.", "title": "Allow Private Urls", "type": "boolean", "position": 9}, "secrets": {"description": "A dictionary of secret values to be substituted in other configs.", "examples": ["{\"tokenFromSecrets\":\"SomeSecretToken\"}"], "title": "Custom Secret Values", "type": "object", "position": 10}}, "required": ["name", "url"], "secret_fields": ["secrets.*"], "title": "CustomWebhookNotificationBlock", "type": "object"}','5d039e7b-dd71-4fae-b645-c2a8664cce57','sha256:69076241f2b9959ae97554957a22ec428886b46f6ed4732af160e117d487c0cf','["notify"]','3.9.1');
INSERT INTO "block_schema" VALUES('c457512a-71f8-4abb-b678-b7a4dc168518','2026-12-06 04:42:14.512335','2026-12-06 04:42:14.512397','{"block_type_slug": "sendgrid-email", "description": "Enables sending notifications via Sendgrid email service.", "properties": {"notify_type": {"default": "info", "description": "The type of notification being performed.", "enum": ["info", "success", "warning", "failure"], "title": "Notify Type", "type": "string", "position": 0}, "api_key": {"description": "The API Key associated with your sendgrid account.", "format": "password", "title": "API Key", "type": "string", "writeOnly": true, "position": 1}, "sender_email": {"description": "The sender email id.", "examples": ["test-support@gmail.com"], "title": "Sender email id", "type": "string", "position": 2}, "to_emails": {"description": "Email ids of all recipients.", "examples": ["[\"recipient1@gmail.com\", \"recipient2@gmail.com\"]"], "items": {"type": "string"}, "title": "Recipient emails", "type": "array", "position": 3}}, "required": ["api_key", "sender_email", "to_emails"], "secret_fields": ["api_key"], "title": "SendgridEmail", "type": "object"}','bb05fddb-f7f0-4b1c-9ef8-25ca1df71104','sha256:b67583d3b7ce215cd84a58ba42bb8936294cc1417ff3fe54d0fb08447932c6f2','["notify"]','3.9.1');
INSERT INTO "block_schema" VALUES('f3bfe600-8de8-4869-b453-6a203b38ec6c','2026-12-06 04:42:14.592883','2026-12-06 04:42:14.592935','{"block_type_slug": "remote-file-system", "description": "Store data as a file on a remote file system.\n\nSupports any remote file system supported by `fsspec`. The file system is specified\nusing a protocol. For example, \"s3://my-bucket/my-folder/\" will use S3.", "properties": {"basepath": {"description": "Default path for this block to write to.", "examples": ["s3://my-bucket/my-folder/"], "title": "Basepath", "type": "string", "position": 0}, "settings": {"description": "Additional settings to pass through to fsspec.", "title": "Settings", "type": "object", "position": 1}}, "required": ["basepath"], "secret_fields": [], "title": "RemoteFileSystem", "type": "object"}','39061973-16e3-4b54-8f96-3af47ac0e394','sha256:3bca63009aa57af6c7053fc17a2a336a1e1801bbb19ca2c5939b59afe435c531','["get-directory", "write-path", "put-directory", "read-path"]','3.9.1');
INSERT INTO "block_schema" VALUES('fda5da7f-3995-4e22-920e-b269db1c1905','2026-12-06 04:42:14.614894','2026-12-06 04:42:14.614939','{"block_type_slug": "smb", "description": "Store data as a file on a SMB share.", "properties": {"share_path": {"description": "SMB target (requires <SHARE>, followed by <PATH>).", "examples": ["/SHARE/dir/subdir"], "title": "Share Path", "type": "string", "position": 0}, "smb_username": {"anyOf": [{"format": "password", "type": "string", "writeOnly": true}, {"type": "null"}], "default": null, "description": "Username with access to the target SMB SHARE.", "title": "SMB Username", "position": 1}, "smb_password": {"anyOf": [{"format": "password", "type": "string", "writeOnly": true}, {"type": "null"}], "default": null, "description": "Password for SMB access.", "title": "SMB Password", "position": 2}, "smb_host": {"description": "SMB server/hostname.", "title": "SMB server/hostname", "type": "string", "position": 3}, "smb_port": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": null, "description": "SMB port (default: 445).", "title": "SMB port", "position": 4}}, "required": ["share_path", "smb_host"], "secret_fields": ["smb_username", "smb_password"], "title": "SMB", "type": "object"}','d5fc55be-e2f4-4b17-bc74-ffa7b80a5174','sha256:849cd014b777a64ee219f6b8b13c15b37c34ea4138d9224c4d45bf00ba2e4681','["get-directory", "write-path", "put-directory", "read-path"]','3.9.1');
INSERT INTO "block_schema" VALUES('1878f622-441a-4dcb-90bc-fc29fcf3718f','2026-12-06 04:42:14.826039','2026-12-06 04:42:14.826099','{"title": "AwsCredentials", "description": "Block used to manage authentication with AWS. AWS authentication is\nhandled via the `boto3` module. Refer to the\n[boto3 docs](https://boto3.amazonaws.com/v1/documentation/api/latest/guide/credentials.html)\nfor more info about the possible credential configurations.", "type": "object", "properties": {"aws_access_key_id": {"title": "AWS Access Key ID", "description": "A specific AWS access key ID.", "type": "string"}, "aws_secret_access_key": {"title": "AWS Access Key Secret", "description": "A specific AWS secret access key.", "type": "string", "writeOnly": true, "format": "password"}, "aws_session_token": {"title": "AWS Session Token", "description": "The session key for your AWS account. This is only needed when you are using temporary credentials.", "type": "string"}, "profile_name": {"title": "Profile Name", "description": "The profile to use when creating your session.", "type": "string"}, "region_name": {"title": "Region Name", "description": "The AWS Region where you want to create new connections.", "type": "string"}, "aws_client_parameters": {"title": "AWS Client Parameters", "description": "Extra parameters to initialize the Client.", "allOf": [{"$ref": "#/definitions/AwsClientParameters"}]}}, "block_type_slug": "aws-credentials", "secret_fields": ["aws_secret_access_key"], "definitions": {"AwsClientParameters": {"title": "AwsClientParameters", "description": "Model used to manage extra parameters that you can pass when you initialize\nthe Client. If you want to find more information, see\n[boto3 docs](https://boto3.amazonaws.com/v1/documentation/api/latest/reference/core/session.html)\nfor more info about the possible client configurations.\n\nAttributes:\n    api_version: The API version to use. By default, botocore will\n        use the latest API version when creating a client. You only need\n        to specify this parameter if you want to use a previous API version\n        of the client.\n    use_ssl: Whether or not to use SSL. By default, SSL is used.\n        Note that not all services support non-ssl connections.\n    verify: Whether or not to verify SSL certificates. By default\n        SSL certificates are verified. If False, SSL will still be used\n        (unless use_ssl is False), but SSL certificates\n        will not be verified. Passing a file path to this is deprecated.\n    verify_cert_path: A filename of the CA cert bundle to\n        use. You can specify this argument if you want to use a\n        different CA cert bundle than the one used by botocore.\n    endpoint_url: The complete URL to use for the constructed\n        client. Normally, botocore will automatically construct the\n        appropriate URL to use when communicating with a service. You\n        can specify a complete URL (including the \"http/https\" scheme)\n        to override this behavior. If this value is provided,\n        then ``use_ssl`` is ignored.\n    config: Advanced configuration for Botocore clients. See\n        [botocore docs](https://botocore.amazonaws.com/v1/documentation/api/latest/reference/config.html)\n        for more details.", "type": "object", "properties": {"api_version": {"title": "API Version", "description": "The API version to use.", "type": "string"}, "use_ssl": {"title": "Use SSL", "description": "Whether or not to use SSL.", "default": true, "type": "boolean"}, "verify": {"title": "Verify", "description": "Whether or not to verify SSL certificates.", "default": true, "anyOf": [{"type": "boolean"}, {"type": "string", "format": "file-path"}]}, "verify_cert_path": {"title": "Certificate Authority Bundle File Path", "description": "Path to the CA cert bundle to use.", "format": "file-path", "type": "string"}, "endpoint_url": {"title": "Endpoint URL", "description": "The complete URL to use for the constructed client.", "type": "string"}, "config": {"title": "Botocore Config", "description": "Advanced configuration for Botocore clients.", "type": "object"}}}}}','7b2c5460-693a-4093-afd2-ca151939b685','sha256:17b73297ed60f080fb235b3a5a145a6d9b28a09b3ff2d9d17810b5e2c2075ebe','[]','0.4.14');
INSERT INTO "block_schema" VALUES('6056b9c5-327f-46c8-82ed-94a378f124e6','2026-12-06 04:42:14.840377','2026-12-06 04:42:14.840438','{"title": "AwsSecret", "description": "Manages a secret in AWS''s Secrets Manager.", "type": "object", "properties": {"aws_credentials": {"$ref": "#/definitions/AwsCredentials"}, "secret_name": {"title": "Secret Name", "description": "The name of the secret.", "type": "string"}}, "required": ["aws_credentials", "secret_name"], "block_type_slug": "aws-secret", "secret_fields": ["aws_credentials.aws_secret_access_key"], "definitions": {"AwsClientParameters": {"title": "AwsClientParameters", "description": "Model used to manage extra parameters that you can pass when you initialize\nthe Client. If you want to find more information, see\n[boto3 docs](https://boto3.amazonaws.com/v1/documentation/api/latest/reference/core/session.html)\nfor more info about the possible client configurations.\n\nAttributes:\n    api_version: The API version to use. By default, botocore will\n        use the latest API version when creating a client. You only need\n        to specify this parameter if you want to use a previous API version\n        of the client.\n    use_ssl: Whether or not to use SSL. By default, SSL is used.\n        Note that not all services support non-ssl connections.\n    verify: Whether or not to verify SSL certificates. By default\n        SSL certificates are verified. If False, SSL will still be used\n        (unless use_ssl is False), but SSL certificates\n        will not be verified. Passing a file path to this is deprecated.\n    verify_cert_path: A filename of the CA cert bundle to\n        use. You can specify this argument if you want to use a\n        different CA cert bundle than the one used by botocore.\n    endpoint_url: The complete URL to use for the constructed\n        client. Normally, botocore will automatically construct the\n        appropriate URL to use when communicating with a service. You\n        can specify a complete URL (including the \"http/https\" scheme)\n        to override this behavior. If this value is provided,\n        then ``use_ssl`` is ignored.\n    config: Advanced configuration for Botocore clients. See\n        [botocore docs](https://botocore.amazonaws.com/v1/documentation/api/latest/reference/config.html)\n        for more details.", "type": "object", "properties": {"api_version": {"title": "API Version", "description": "The API version to use.", "type": "string"}, "use_ssl": {"title": "Use SSL", "description": "Whether or not to use SSL.", "default": true, "type": "boolean"}, "verify": {"title": "Verify", "description": "Whether or not to verify SSL certificates.", "default": true, "anyOf": [{"type": "boolean"}, {"type": "string", "format": "file-path"}]}, "verify_cert_path": {"title": "Certificate Authority Bundle File Path", "description": "Path to the CA cert bundle to use.", "format": "file-path", "type": "string"}, "endpoint_url": {"title": "Endpoint URL", "description": "The complete URL to use for the constructed client.", "type": "string"}, "config": {"title": "Botocore Config", "description": "Advanced configuration for Botocore clients.", "type": "object"}}}}}','fd8d0dd3-7265-48a5-a144-c1b2a9d3dbe2','sha256:d10fde5ac25b10edca4859c4d0bf61b4a9106215cd79ab80997f29859b190b7d','[]','0.4.14');
INSERT INTO "block_schema" VALUES('e1584df5-fe02-4afa-9582-f5d39dd72e87','2026-12-06 04:42:14.873392','2026-12-06 04:42:14.873453','{"title": "LambdaFunction", "description": "Invoke a Lambda function. This block is part of the prefect-aws\ncollection. Install prefect-aws with `pip install prefect-aws` to use this\nblock.", "type": "object", "properties": {"function_name": {"title": "Function Name", "description": "The name, ARN, or partial ARN of the Lambda function to run. This must be the name of a function that is already deployed to AWS Lambda.", "type": "string"}, "qualifier": {"title": "Qualifier", "description": "The version or alias of the Lambda function to use when invoked. If not specified, the latest (unqualified) version of the Lambda function will be used.", "type": "string"}, "aws_credentials": {"title": "AWS Credentials", "description": "The AWS credentials to invoke the Lambda with.", "allOf": [{"$ref": "#/definitions/AwsCredentials"}]}}, "required": ["function_name"], "block_type_slug": "lambda-function", "secret_fields": ["aws_credentials.aws_secret_access_key"], "definitions": {"AwsClientParameters": {"title": "AwsClientParameters", "description": "Model used to manage extra parameters that you can pass when you initialize\nthe Client. If you want to find more information, see\n[boto3 docs](https://boto3.amazonaws.com/v1/documentation/api/latest/reference/core/session.html)\nfor more info about the possible client configurations.\n\nAttributes:\n    api_version: The API version to use. By default, botocore will\n        use the latest API version when creating a client. You only need\n        to specify this parameter if you want to use a previous API version\n        of the client.\n    use_ssl: Whether or not to use SSL. By default, SSL is used.\n        Note that not all services support non-ssl connections.\n    verify: Whether or not to verify SSL certificates. By default\n        SSL certificates are verified. If False, SSL will still be used\n        (unless use_ssl is False), but SSL certificates\n        will not be verified. Passing a file path to this is deprecated.\n    verify_cert_path: A filename of the CA cert bundle to\n        use. You can specify this argument if you want to use a\n        different CA cert bundle than the one used by botocore.\n    endpoint_url: The complete URL to use for the constructed\n        client. Normally, botocore will automatically construct the\n        appropriate URL to use when communicating with a service. You\n        can specify a complete URL (including the \"http/https\" scheme)\n        to override this behavior. If this value is provided,\n        then ``use_ssl`` is ignored.\n    config: Advanced configuration for Botocore clients. See\n        [botocore docs](https://botocore.amazonaws.com/v1/documentation/api/latest/reference/config.html)\n        for more details.", "type": "object", "properties": {"api_version": {"title": "API Version", "description": "The API version to use.", "type": "string"}, "use_ssl": {"title": "Use SSL", "description": "Whether or not to use SSL.", "default": true, "type": "boolean"}, "verify": {"title": "Verify", "description": "Whether or not to verify SSL certificates.", "default": true, "anyOf": [{"type": "boolean"}, {"type": "string", "format": "file-path"}]}, "verify_cert_path": {"title": "Certificate Authority Bundle File Path", "description": "Path to the CA cert bundle to use.", "format": "file-path", "type": "string"}, "endpoint_url": {"title": "Endpoint URL", "description": "The complete URL to use for the constructed client.", "type": "string"}, "config": {"title": "Botocore Config", "description": "Advanced configuration for Botocore clients.", "type": "object"}}}}}','b18bfa67-0a0b-4d8c-a9e1-e40b0eccd2f6','sha256:93fb424309b85c0ef9a8e69cc9d0df1e0afa0f2ed15f1ecc710ec3463513b2e4','[]','0.4.14');
INSERT INTO "block_schema" VALUES('3da69b5c-0a14-4503-8982-06b54a79ea93','2026-12-06 04:42:14.900023','2026-12-06 04:42:14.900079','{"title": "MinIOCredentials", "description": "Block used to manage authentication with MinIO. Refer to the MinIO docs: https://docs.min.io/docs/minio-server-configuration-guide.html for more info about the possible credential configurations.", "type": "object", "properties": {"minio_root_user": {"title": "Minio Root User", "description": "Admin or root user.", "type": "string"}, "minio_root_password": {"title": "Minio Root Password", "description": "Admin or root password.", "type": "string", "writeOnly": true, "format": "password"}, "region_name": {"title": "Region Name", "description": "The AWS Region where you want to create new connections.", "type": "string"}, "aws_client_parameters": {"title": "Aws Client Parameters", "description": "Extra parameters to initialize the Client.", "allOf": [{"$ref": "#/definitions/AwsClientParameters"}]}}, "required": ["minio_root_user", "minio_root_password"], "block_type_slug": "minio-credentials", "secret_fields": ["minio_root_password"], "definitions": {"AwsClientParameters": {"title": "AwsClientParameters", "description": "Model used to manage extra parameters that you can pass when you initialize\nthe Client. If you want to find more information, see\n[boto3 docs](https://boto3.amazonaws.com/v1/documentation/api/latest/reference/core/session.html)\nfor more info about the possible client configurations.\n\nAttributes:\n    api_version: The API version to use. By default, botocore will\n        use the latest API version when creating a client. You only need\n        to specify this parameter if you want to use a previous API version\n        of the client.\n    use_ssl: Whether or not to use SSL. By default, SSL is used.\n        Note that not all services support non-ssl connections.\n    verify: Whether or not to verify SSL certificates. By default\n        SSL certificates are verified. If False, SSL will still be used\n        (unless use_ssl is False), but SSL certificates\n        will not be verified. Passing a file path to this is deprecated.\n    verify_cert_path: A filename of the CA cert bundle to\n        use. You can specify this argument if you want to use a\n        different CA cert bundle than the one used by botocore.\n    endpoint_url: The complete URL to use for the constructed\n        client. Normally, botocore will automatically construct the\n        appropriate URL to use when communicating with a service. You\n        can specify a complete URL (including the \"http/https\" scheme)\n        to override this behavior. If this value is provided,\n        then ``use_ssl`` is ignored.\n    config: Advanced configuration for Botocore clients. See\n        [botocore docs](https://botocore.amazonaws.com/v1/documentation/api/latest/reference/config.html)\n        for more details.", "type": "object", "properties": {"api_version": {"title": "API Version", "description": "The API version to use.", "type": "string"}, "use_ssl": {"title": "Use SSL", "description": "Whether or not to use SSL.", "default": true, "type": "boolean"}, "verify": {"title": "Verify", "description": "Whether or not to verify SSL certificates.", "default": true, "anyOf": [{"type": "boolean"}, {"type": "string", "format": "file-path"}]}, "verify_cert_path": {"title": "Certificate Authority Bundle File Path", "description": "Path to the CA cert bundle to use.", "format": "file-path", "type": "string"}, "endpoint_url": {"title": "Endpoint URL", "description": "The complete URL to use for the constructed client.", "type": "string"}, "config": {"title": "Botocore Config", "description": "Advanced configuration for Botocore clients.", "type": "object"}}}}}','0dba0cbc-258a-407b-a8b4-498146680a58','sha256:5b4f1e5270f3a3670ff3d06b7e6e8246d54dacba976321dec42abe51c33415fb','[]','0.4.14');
INSERT INTO "block_schema" VALUES('0d8d0c74-6b18-435f-8baf-545651d7da17','2026-12-06 04:42:14.915833','2026-12-06 04:42:14.915889','{"title": "S3Bucket", "description": "Block used to store data using AWS S3 or S3-compatible object storage like MinIO.", "type": "object", "properties": {"bucket_name": {"title": "Bucket Name", "description": "Name of your bucket.", "type": "string"}, "credentials": {"title": "Credentials", "description": "A block containing your credentials to AWS or MinIO.", "anyOf": [{"$ref": "#/definitions/MinIOCredentials"}, {"$ref": "#/definitions/AwsCredentials"}]}, "bucket_folder": {"title": "Bucket Folder", "description": "A default path to a folder within the S3 bucket to use for reading and writing objects.", "default": "", "type": "string"}}, "required": ["bucket_name"], "block_type_slug": "s3-bucket", "secret_fields": ["credentials.minio_root_password", "credentials.aws_secret_access_key"], "definitions": {"AwsClientParameters": {"title": "AwsClientParameters", "description": "Model used to manage extra parameters that you can pass when you initialize\nthe Client. If you want to find more information, see\n[boto3 docs](https://boto3.amazonaws.com/v1/documentation/api/latest/reference/core/session.html)\nfor more info about the possible client configurations.\n\nAttributes:\n    api_version: The API version to use. By default, botocore will\n        use the latest API version when creating a client. You only need\n        to specify this parameter if you want to use a previous API version\n        of the client.\n    use_ssl: Whether or not to use SSL. By default, SSL is used.\n        Note that not all services support non-ssl connections.\n    verify: Whether or not to verify SSL certificates. By default\n        SSL certificates are verified. If False, SSL will still be used\n        (unless use_ssl is False), but SSL certificates\n        will not be verified. Passing a file path to this is deprecated.\n    verify_cert_path: A filename of the CA cert bundle to\n        use. You can specify this argument if you want to use a\n        different CA cert bundle than the one used by botocore.\n    endpoint_url: The complete URL to use for the constructed\n        client. Normally, botocore will automatically construct the\n        appropriate URL to use when communicating with a service. You\n        can specify a complete URL (including the \"http/https\" scheme)\n        to override this behavior. If this value is provided,\n        then ``use_ssl`` is ignored.\n    config: Advanced configuration for Botocore clients. See\n        [botocore docs](https://botocore.amazonaws.com/v1/documentation/api/latest/reference/config.html)\n        for more details.", "type": "object", "properties": {"api_version": {"title": "API Version", "description": "The API version to use.", "type": "string"}, "use_ssl": {"title": "Use SSL", "description": "Whether or not to use SSL.", "default": true, "type": "boolean"}, "verify": {"title": "Verify", "description": "Whether or not to verify SSL certificates.", "default": true, "anyOf": [{"type": "boolean"}, {"type": "string", "format": "file-path"}]}, "verify_cert_path": {"title": "Certificate Authority Bundle File Path", "description": "Path to the CA cert bundle to use.", "format": "file-path", "type": "string"}, "endpoint_url": {"title": "Endpoint URL", "description": "The complete URL to use for the constructed client.", "type": "string"}, "config": {"title": "Botocore Config", "description": "Advanced configuration for Botocore clients.", "type": "object"}}}}}','a9fc92ed-3fd8-4f21-a188-5c0903f25628','sha256:da1e638612365b12ec83b6102986cc5efe54e84b7144bd668629f6972afe748f','["get-directory", "put-directory", "read-path", "write-path"]','0.4.14');
INSERT INTO "block_schema" VALUES('96dd58ce-7778-4be4-a00c-d4aa60c3ad72','2026-12-06 04:42:14.956693','2026-12-06 04:42:14.956753','{"title": "AzureBlobStorageContainer", "description": "Represents a container in Azure Blob Storage.\n\nThis class provides methods for downloading and uploading files and folders\nto and from the Azure Blob Storage container.", "type": "object", "properties": {"container_name": {"title": "Container Name", "description": "The name of a Azure Blob Storage container.", "type": "string"}, "credentials": {"title": "Credentials", "description": "The credentials to use for authentication with Azure.", "allOf": [{"$ref": "#/definitions/AzureBlobStorageCredentials"}]}, "base_folder": {"title": "Base Folder", "description": "A base path to a folder within the container to use for reading and writing objects.", "type": "string"}}, "required": ["container_name"], "block_type_slug": "azure-blob-storage-container", "secret_fields": ["credentials.connection_string"]}','a8d027f4-99aa-4b5e-bc8b-447960b1b6d1','sha256:dcb604fba31292177868c0998110c7b4c0ba0b5601ee39679b2936adfd836f19','["get-directory", "put-directory", "read-path", "write-path"]','0.3.7');
INSERT INTO "block_schema" VALUES('7fb09c46-3c32-497b-bb10-e3029211cf98','2026-12-06 04:42:14.970453','2026-12-06 04:42:14.970511','{"title": "AzureBlobStorageCredentials", "description": "Stores credentials for authenticating with Azure Blob Storage.", "type": "object", "properties": {"connection_string": {"title": "Connection String", "description": "The connection string to your Azure storage account. If provided, the connection string will take precedence over the account URL.", "type": "string", "writeOnly": true, "format": "password"}, "account_url": {"title": "Account URL", "description": "The URL for your Azure storage account. If provided, the account URL will be used to authenticate with the discovered default Azure credentials.", "type": "string"}}, "block_type_slug": "azure-blob-storage-credentials", "secret_fields": ["connection_string"]}','b25016c2-d99d-4c49-b680-054efd51c088','sha256:73e835b6cb9a1902fd869037fb7f8a90f974508dda7a168e748a1206e7c325eb','[]','non-versioned');
INSERT INTO "block_schema" VALUES('9b4a2c40-be4e-4e1d-82f2-01660aac1afd','2026-12-06 04:42:14.987730','2026-12-06 04:42:14.987788','{"title": "AzureBlobStorageCredentials", "description": "Stores credentials for authenticating with Azure Blob Storage.", "type": "object", "properties": {"connection_string": {"title": "Connection String", "description": "The connection string to your Azure storage account. If provided, the connection string will take precedence over the account URL.", "type": "string", "writeOnly": true, "format": "password"}, "account_url": {"title": "Account URL", "description": "The URL for your Azure storage account. If provided, the account URL will be used to authenticate with the discovered default Azure credentials.", "type": "string"}}, "block_type_slug": "azure-blob-storage-credentials", "secret_fields": ["connection_string"]}','b25016c2-d99d-4c49-b680-054efd51c088','sha256:73e835b6cb9a1902fd869037fb7f8a90f974508dda7a168e748a1206e7c325eb','[]','0.3.7');
INSERT INTO "block_schema" VALUES('39e3edf4-fdf0-4400-81a6-27c742530fb2','2026-12-06 04:42:15.000186','2026-12-06 04:42:15.000247','{"title": "AzureContainerInstanceCredentials", "description": "Block used to manage Azure Container Instances authentication. Stores Azure Service\nPrincipal authentication data.", "type": "object", "properties": {"client_id": {"title": "Client ID", "description": "The service principal client ID. If none of client_id, tenant_id, and client_secret are provided, will use DefaultAzureCredential; else will need to provide all three to use ClientSecretCredential.", "type": "string"}, "tenant_id": {"title": "Tenant ID", "description": "The service principal tenant ID.If none of client_id, tenant_id, and client_secret are provided, will use DefaultAzureCredential; else will need to provide all three to use ClientSecretCredential.", "type": "string"}, "client_secret": {"title": "Client Secret", "description": "The service principal client secret.If none of client_id, tenant_id, and client_secret are provided, will use DefaultAzureCredential; else will need to provide all three to use ClientSecretCredential.", "type": "string", "writeOnly": true, "format": "password"}, "credential_kwargs": {"title": "Additional Credential Keyword Arguments", "description": "Additional keyword arguments to pass to `ClientSecretCredential` or `DefaultAzureCredential`.", "type": "object"}}, "block_type_slug": "azure-container-instance-credentials", "secret_fields": ["client_secret"]}','2fa20212-3bb5-4eca-b69c-e447247a10fb','sha256:17a9122f9f345a4547128cc05f7ff7146da9a72c4bac2850004fcc6c8d9be2d1','[]','0.3.7');
INSERT INTO "block_schema" VALUES('abbf11b7-54b6-40f4-a4c6-0ad8f4ad4e27','2026-12-06 04:42:15.013490','2026-12-06 04:42:15.013550','{"title": "AzureCosmosDbCredentials", "description": "Block used to manage Cosmos DB authentication with Azure.\nAzure authentication is handled via the `azure` module through\na connection string.", "type": "object", "properties": {"connection_string": {"title": "Connection String", "description": "Includes the authorization information required.", "type": "string", "writeOnly": true, "format": "password"}}, "required": ["connection_string"], "block_type_slug": "azure-cosmos-db-credentials", "secret_fields": ["connection_string"]}','8a7f26fd-46af-4ef1-84cb-916cb88ba713','sha256:2f9f6e6f6c2eb570a05113638e6237fe74f7684993a351018657211d4705a83a','[]','0.3.7');
INSERT INTO "block_schema" VALUES('3f7d429f-d157-4808-9d79-4634aec7d1f3','2026-12-06 04:42:15.029567','2026-12-06 04:42:15.029629','{"title": "AzureMlCredentials", "description": "Block used to manage authentication with AzureML. Azure authentication is\nhandled via the `azure` module.", "type": "object", "properties": {"tenant_id": {"title": "Tenant Id", "description": "The active directory tenant that the service identity belongs to.", "type": "string"}, "service_principal_id": {"title": "Service Principal Id", "description": "The service principal ID.", "type": "string"}, "service_principal_password": {"title": "Service Principal Password", "description": "The service principal password/key.", "type": "string", "writeOnly": true, "format": "password"}, "subscription_id": {"title": "Subscription Id", "description": "The Azure subscription ID containing the workspace, in format: ''00000000-0000-0000-0000-000000000000''.", "type": "string"}, "resource_group": {"title": "Resource Group", "description": "The resource group containing the workspace.", "type": "string"}, "workspace_name": {"title": "Workspace Name", "description": "The existing workspace name.", "type": "string"}}, "required": ["tenant_id", "service_principal_id", "service_principal_password", "subscription_id", "resource_group", "workspace_name"], "block_type_slug": "azureml-credentials", "secret_fields": ["service_principal_password"]}','d3dc52ee-016c-4cba-81bb-de7599561d07','sha256:11338ccb5cd90992ac378f9b7a73cbf1942fae58343ac2026b3718ed688b52e6','[]','0.3.7');
INSERT INTO "block_schema" VALUES('0c39f2cd-981e-4c30-ae53-2c49434d9919','2026-12-06 04:42:15.044139','2026-12-06 04:42:15.044201','{"title": "BitBucketCredentials", "description": "Store BitBucket credentials to interact with private BitBucket repositories.", "type": "object", "properties": {"token": {"title": "Token", "description": "A BitBucket Personal Access Token - required for private repositories.", "name": "Personal Access Token", "example": "x-token-auth:my-token", "type": "string", "writeOnly": true, "format": "password"}, "username": {"title": "Username", "description": "Identification name unique across entire BitBucket site.", "type": "string"}, "password": {"title": "Password", "description": "The password to authenticate to BitBucket.", "type": "string", "writeOnly": true, "format": "password"}, "url": {"title": "URL", "description": "The base URL of your BitBucket instance.", "default": "https://api.bitbucket.org/", "type": "string"}}, "block_type_slug": "bitbucket-credentials", "secret_fields": ["token", "password"]}','3e18585c-b6c1-40b1-b1dd-919ef813d726','sha256:ef96bdc56cde651f152e3f8938018d53d725b25b5ae98777872c0962250ba0fc','[]','0.2.2');
INSERT INTO "block_schema" VALUES('d9cd0aa7-1870-4407-a86e-025c3aca5ad5','2026-12-06 04:42:15.056830','2026-12-06 04:42:15.056889','{"title": "BitBucketRepository", "description": "Interact with files stored in BitBucket repositories.", "type": "object", "properties": {"repository": {"title": "Repository", "description": "The URL of a BitBucket repository to read from in HTTPS format", "type": "string"}, "reference": {"title": "Reference", "description": "An optional reference to pin to; can be a branch or tag.", "type": "string"}, "bitbucket_credentials": {"title": "Bitbucket Credentials", "description": "An optional BitBucketCredentials block for authenticating with private BitBucket repos.", "allOf": [{"$ref": "#/definitions/BitBucketCredentials"}]}}, "required": ["repository"], "block_type_slug": "bitbucket-repository", "secret_fields": ["bitbucket_credentials.token", "bitbucket_credentials.password"]}','72925cc6-6fd2-45b6-b9f3-48e0893d2321','sha256:b159a8f21358b694f13fb67b73f20bf3f8b74138940fc0f16ab08107e78d5237','["get-directory"]','0.2.2');
INSERT INTO "block_schema" VALUES('102ad795-554c-449f-92b0-41f8d89f8926','2026-12-06 04:42:15.079787','2026-12-06 04:42:15.079844','{"title": "DatabricksCredentials", "description": "Block used to manage Databricks authentication.", "type": "object", "properties": {"databricks_instance": {"title": "Databricks Instance", "description": "Databricks instance used in formatting the endpoint URL.", "type": "string"}, "token": {"title": "Token", "description": "The token to authenticate with Databricks.", "type": "string", "writeOnly": true, "format": "password"}, "client_kwargs": {"title": "Client Kwargs", "description": "Additional keyword arguments to pass to AsyncClient.", "type": "object"}}, "required": ["databricks_instance", "token"], "block_type_slug": "databricks-credentials", "secret_fields": ["token"]}','540623fa-68aa-46c2-8f18-ef08d932f8a4','sha256:58bae1446ee7a01ec90d15cf756f8acc221329e3b3580b077b508ff0f2425e35','[]','0.2.3');
INSERT INTO "block_schema" VALUES('32f7f8a2-82e7-4f64-8646-c8f3e890d59e','2026-12-06 04:42:15.092527','2026-12-06 04:42:15.092587','{"title": "BigQueryTargetConfigs", "description": "dbt CLI target configs containing credentials and settings, specific to BigQuery.", "type": "object", "properties": {"extras": {"title": "Extras", "description": "Extra target configs'' keywords, not yet exposed in prefect-dbt, but available in dbt.", "type": "object"}, "allow_field_overrides": {"title": "Allow Field Overrides", "description": "If enabled, fields from dbt target configs will override fields provided in extras and credentials.", "default": false, "type": "boolean"}, "type": {"title": "Type", "description": "The type of target.", "default": "bigquery", "enum": ["bigquery"], "type": "string"}, "schema": {"title": "Schema", "description": "The schema that dbt will build objects into; in BigQuery, a schema is actually a dataset.", "type": "string"}, "threads": {"title": "Threads", "description": "The number of threads representing the max number of paths through the graph dbt may work on at once.", "default": 4, "type": "integer"}, "project": {"title": "Project", "description": "The project to use.", "type": "string"}, "credentials": {"title": "Credentials", "description": "The credentials to use to authenticate.", "allOf": [{"$ref": "#/definitions/GcpCredentials"}]}}, "required": ["schema"], "block_type_slug": "dbt-cli-bigquery-target-configs", "secret_fields": ["credentials.service_account_info.*"]}','64627c60-ffee-4f1d-abf1-6fcc170203c3','sha256:842c5dc7d4d1557eedff36982eafeda7b0803915942f72224a7f627efdbe5ff5','[]','0.4.1');
INSERT INTO "block_schema" VALUES('70d1d052-d271-4004-8061-2caa742d05bd','2026-12-06 04:42:15.107888','2026-12-06 04:42:15.107948','{"title": "GcpCredentials", "description": "Block used to manage authentication with GCP. Google authentication is\nhandled via the `google.oauth2` module or through the CLI.\nSpecify either one of service `account_file` or `service_account_info`; if both\nare not specified, the client will try to detect the credentials following Google''s\n[Application Default Credentials](https://cloud.google.com/docs/authentication/application-default-credentials).\nSee Google''s [Authentication documentation](https://cloud.google.com/docs/authentication#service-accounts)\nfor details on inference and recommended authentication patterns.", "type": "object", "properties": {"service_account_file": {"title": "Service Account File", "description": "Path to the service account JSON keyfile.", "type": "string", "format": "path"}, "service_account_info": {"title": "Service Account Info", "description": "The contents of the keyfile as a dict.", "type": "object"}, "project": {"title": "Project", "description": "The GCP project to use for the client.", "type": "string"}}, "block_type_slug": "gcp-credentials", "secret_fields": ["service_account_info.*"]}','a390f6e9-0fc6-4103-ae8f-6166cb2af576','sha256:f764f9c506a2bed9e5ed7cc9083d06d95f13c01c8c9a9e45bae5d9b4dc522624','[]','non-versioned');
INSERT INTO "block_schema" VALUES('8618381f-0909-4c52-9a2c-08347c4624cd','2026-12-06 04:42:15.128004','2026-12-06 04:42:15.128065','{"title": "GlobalConfigs", "description": "Global configs control things like the visual output\nof logs, the manner in which dbt parses your project,\nand what to do when dbt finds a version mismatch\nor a failing model. Docs can be found [here](\nhttps://docs.getdbt.com/reference/global-configs).", "type": "object", "properties": {"extras": {"title": "Extras", "description": "Extra target configs'' keywords, not yet exposed in prefect-dbt, but available in dbt.", "type": "object"}, "allow_field_overrides": {"title": "Allow Field Overrides", "description": "If enabled, fields from dbt target configs will override fields provided in extras and credentials.", "default": false, "type": "boolean"}, "send_anonymous_usage_stats": {"title": "Send Anonymous Usage Stats", "description": "Whether usage stats are sent to dbt.", "type": "boolean"}, "use_colors": {"title": "Use Colors", "description": "Colorize the output it prints in your terminal.", "type": "boolean"}, "partial_parse": {"title": "Partial Parse", "description": "When partial parsing is enabled, dbt will use an stored internal manifest to determine which files have been changed (if any) since it last parsed the project.", "type": "boolean"}, "printer_width": {"title": "Printer Width", "description": "Length of characters before starting a new line.", "type": "integer"}, "write_json": {"title": "Write Json", "description": "Determines whether dbt writes JSON artifacts to the target/ directory.", "type": "boolean"}, "warn_error": {"title": "Warn Error", "description": "Whether to convert dbt warnings into errors.", "type": "boolean"}, "log_format": {"title": "Log Format", "description": "The LOG_FORMAT config specifies how dbt''s logs should be formatted. If the value of this config is json, dbt will output fully structured logs in JSON format.", "type": "string"}, "debug": {"title": "Debug", "description": "Whether to redirect dbt''s debug logs to standard out.", "type": "boolean"}, "version_check": {"title": "Version Check", "description": "Whether to raise an error if a project''s version is used with an incompatible dbt version.", "type": "boolean"}, "fail_fast": {"title": "Fail Fast", "description": "Make dbt exit immediately if a single resource fails to build.", "type": "boolean"}, "use_experimental_parser": {"title": "Use Experimental Parser", "description": "Opt into the latest experimental version of the static parser.", "type": "boolean"}, "static_parser": {"title": "Static Parser", "description": "Whether to use the [static parser](https://docs.getdbt.com/reference/parsing#static-parser).", "type": "boolean"}}, "block_type_slug": "dbt-cli-global-configs", "secret_fields": []}','c22ab6aa-b52e-4a98-b88c-42c7e72a700f','sha256:63df9d18a1aafde1cc8330cd49f81f6600b4ce6db92955973bbf341cc86e916d','[]','0.4.1');
INSERT INTO "block_schema" VALUES('e7297c2f-331a-4b9f-9d7a-19106f1c1420','2026-12-06 04:42:15.141922','2026-12-06 04:42:15.141978','{"title": "PostgresTargetConfigs", "description": "dbt CLI target configs containing credentials and settings specific to Postgres.", "type": "object", "properties": {"extras": {"title": "Extras", "description": "Extra target configs'' keywords, not yet exposed in prefect-dbt, but available in dbt.", "type": "object"}, "allow_field_overrides": {"title": "Allow Field Overrides", "description": "If enabled, fields from dbt target configs will override fields provided in extras and credentials.", "default": false, "type": "boolean"}, "type": {"title": "Type", "description": "The type of the target.", "default": "postgres", "enum": ["postgres"], "type": "string"}, "schema": {"title": "Schema", "description": "The schema that dbt will build objects into; in BigQuery, a schema is actually a dataset.", "type": "string"}, "threads": {"title": "Threads", "description": "The number of threads representing the max number of paths through the graph dbt may work on at once.", "default": 4, "type": "integer"}, "credentials": {"title": "Credentials", "description": "The credentials to use to authenticate; if there are duplicate keys between credentials and TargetConfigs, e.g. schema, an error will be raised.", "anyOf": [{"$ref": "#/definitions/SqlAlchemyConnector"}, {"$ref": "#/definitions/DatabaseCredentials"}]}}, "required": ["schema", "credentials"], "block_type_slug": "dbt-cli-postgres-target-configs", "secret_fields": ["credentials.connection_info.password", "credentials.password"], "definitions": {"AsyncDriver": {"title": "AsyncDriver", "description": "Known dialects with their corresponding async drivers.\n\nAttributes:\n    POSTGRESQL_ASYNCPG (Enum): [postgresql+asyncpg](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.asyncpg)\n\n    SQLITE_AIOSQLITE (Enum): [sqlite+aiosqlite](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.aiosqlite)\n\n    MYSQL_ASYNCMY (Enum): [mysql+asyncmy](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.asyncmy)\n    MYSQL_AIOMYSQL (Enum): [mysql+aiomysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.aiomysql)", "enum": ["postgresql+asyncpg", "sqlite+aiosqlite", "mysql+asyncmy", "mysql+aiomysql"]}, "SyncDriver": {"title": "SyncDriver", "description": "Known dialects with their corresponding sync drivers.\n\nAttributes:\n    POSTGRESQL_PSYCOPG2 (Enum): [postgresql+psycopg2](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.psycopg2)\n    POSTGRESQL_PG8000 (Enum): [postgresql+pg8000](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pg8000)\n    POSTGRESQL_PSYCOPG2CFFI (Enum): [postgresql+psycopg2cffi](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.psycopg2cffi)\n    POSTGRESQL_PYPOSTGRESQL (Enum): [postgresql+pypostgresql](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pypostgresql)\n    POSTGRESQL_PYGRESQL (Enum): [postgresql+pygresql](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pygresql)\n\n    MYSQL_MYSQLDB (Enum): [mysql+mysqldb](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.mysqldb)\n    MYSQL_PYMYSQL (Enum): [mysql+pymysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.pymysql)\n    MYSQL_MYSQLCONNECTOR (Enum): [mysql+mysqlconnector](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.mysqlconnector)\n    MYSQL_CYMYSQL (Enum): [mysql+cymysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.cymysql)\n    MYSQL_OURSQL (Enum): [mysql+oursql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.oursql)\n    MYSQL_PYODBC (Enum): [mysql+pyodbc](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.pyodbc)\n\n    SQLITE_PYSQLITE (Enum): [sqlite+pysqlite](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.pysqlite)\n    SQLITE_PYSQLCIPHER (Enum): [sqlite+pysqlcipher](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.pysqlcipher)\n\n    ORACLE_CX_ORACLE (Enum): [oracle+cx_oracle](https://docs.sqlalchemy.org/en/14/dialects/oracle.html#module-sqlalchemy.dialects.oracle.cx_oracle)\n\n    MSSQL_PYODBC (Enum): [mssql+pyodbc](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.pyodbc)\n    MSSQL_MXODBC (Enum): [mssql+mxodbc](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.mxodbc)\n    MSSQL_PYMSSQL (Enum): [mssql+pymssql](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.pymssql)", "enum": ["postgresql+psycopg2", "postgresql+pg8000", "postgresql+psycopg2cffi", "postgresql+pypostgresql", "postgresql+pygresql", "mysql+mysqldb", "mysql+pymysql", "mysql+mysqlconnector", "mysql+cymysql", "mysql+oursql", "mysql+pyodbc", "sqlite+pysqlite", "sqlite+pysqlcipher", "oracle+cx_oracle", "mssql+pyodbc", "mssql+mxodbc", "mssql+pymssql"]}, "ConnectionComponents": {"title": "ConnectionComponents", "description": "Parameters to use to create a SQLAlchemy engine URL.\n\nAttributes:\n    driver: The driver name to use.\n    database: The name of the database to use.\n    username: The user name used to authenticate.\n    password: The password used to authenticate.\n    host: The host address of the database.\n    port: The port to connect to the database.\n    query: A dictionary of string keys to string values to be passed to the dialect\n        and/or the DBAPI upon connect.", "type": "object", "properties": {"driver": {"title": "Driver", "description": "The driver name to use.", "anyOf": [{"$ref": "#/definitions/AsyncDriver"}, {"$ref": "#/definitions/SyncDriver"}, {"type": "string"}]}, "database": {"title": "Database", "description": "The name of the database to use.", "type": "string"}, "username": {"title": "Username", "description": "The user name used to authenticate.", "type": "string"}, "password": {"title": "Password", "description": "The password used to authenticate.", "type": "string", "writeOnly": true, "format": "password"}, "host": {"title": "Host", "description": "The host address of the database.", "type": "string"}, "port": {"title": "Port", "description": "The port to connect to the database.", "type": "string"}, "query": {"title": "Query", "description": "A dictionary of string keys to string values to be passed to the dialect and/or the DBAPI upon connect. To specify non-string parameters to a Python DBAPI directly, use connect_args.", "type": "object", "additionalProperties": {"type": "string"}}}, "required": ["driver", "database"]}}}','d3afc11b-7b97-4bc9-bcc6-804ade945455','sha256:1552a2d5c102961df4082329f39c10b8a51e26ee687148efd6d71ce8be8850c0','[]','0.4.1');
INSERT INTO "block_schema" VALUES('e4511c3e-42bb-49a5-9872-b67b5ddd8558','2026-12-06 04:42:15.157815','2026-12-06 04:42:15.157881','{"title": "SqlAlchemyConnector", "description": "Block used to manage authentication with a database.\n\nUpon instantiating, an engine is created and maintained for the life of\nthe object until the close method is called.\n\nIt is recommended to use this block as a context manager, which will automatically\nclose the engine and its connections when the context is exited.\n\nIt is also recommended that this block is loaded and consumed within a single task\nor flow because if the block is passed across separate tasks and flows,\nthe state of the block''s connection and cursor could be lost.", "type": "object", "properties": {"connection_info": {"title": "Connection Info", "description": "SQLAlchemy URL to create the engine; either create from components or create from a string.", "anyOf": [{"$ref": "#/definitions/ConnectionComponents"}, {"type": "string", "minLength": 1, "maxLength": 65536, "format": "uri"}]}, "connect_args": {"title": "Additional Connection Arguments", "description": "The options which will be passed directly to the DBAPI''s connect() method as additional keyword arguments.", "type": "object"}, "fetch_size": {"title": "Fetch Size", "description": "The number of rows to fetch at a time.", "default": 1, "type": "integer"}}, "required": ["connection_info"], "block_type_slug": "sqlalchemy-connector", "secret_fields": ["connection_info.password"], "definitions": {"ConnectionComponents": {"title": "ConnectionComponents", "description": "Parameters to use to create a SQLAlchemy engine URL.\n\nAttributes:\n    driver: The driver name to use.\n    database: The name of the database to use.\n    username: The user name used to authenticate.\n    password: The password used to authenticate.\n    host: The host address of the database.\n    port: The port to connect to the database.\n    query: A dictionary of string keys to string values to be passed to the dialect\n        and/or the DBAPI upon connect.", "type": "object", "properties": {"driver": {"title": "Driver", "description": "The driver name to use.", "anyOf": [{"$ref": "#/definitions/AsyncDriver"}, {"$ref": "#/definitions/SyncDriver"}, {"type": "string"}]}, "database": {"title": "Database", "description": "The name of the database to use.", "type": "string"}, "username": {"title": "Username", "description": "The user name used to authenticate.", "type": "string"}, "password": {"title": "Password", "description": "The password used to authenticate.", "type": "string", "writeOnly": true, "format": "password"}, "host": {"title": "Host", "description": "The host address of the database.", "type": "string"}, "port": {"title": "Port", "description": "The port to connect to the database.", "type": "string"}, "query": {"title": "Query", "description": "A dictionary of string keys to string values to be passed to the dialect and/or the DBAPI upon connect. To specify non-string parameters to a Python DBAPI directly, use connect_args.", "type": "object", "additionalProperties": {"type": "string"}}}, "required": ["driver", "database"]}, "AsyncDriver": {"title": "AsyncDriver", "description": "Known dialects with their corresponding async drivers.\n\nAttributes:\n    POSTGRESQL_ASYNCPG (Enum): [postgresql+asyncpg](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.asyncpg)\n\n    SQLITE_AIOSQLITE (Enum): [sqlite+aiosqlite](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.aiosqlite)\n\n    MYSQL_ASYNCMY (Enum): [mysql+asyncmy](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.asyncmy)\n    MYSQL_AIOMYSQL (Enum): [mysql+aiomysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.aiomysql)", "enum": ["postgresql+asyncpg", "sqlite+aiosqlite", "mysql+asyncmy", "mysql+aiomysql"]}, "SyncDriver": {"title": "SyncDriver", "description": "Known dialects with their corresponding sync drivers.\n\nAttributes:\n    POSTGRESQL_PSYCOPG2 (Enum): [postgresql+psycopg2](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.psycopg2)\n    POSTGRESQL_PG8000 (Enum): [postgresql+pg8000](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pg8000)\n    POSTGRESQL_PSYCOPG2CFFI (Enum): [postgresql+psycopg2cffi](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.psycopg2cffi)\n    POSTGRESQL_PYPOSTGRESQL (Enum): [postgresql+pypostgresql](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pypostgresql)\n    POSTGRESQL_PYGRESQL (Enum): [postgresql+pygresql](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pygresql)\n\n    MYSQL_MYSQLDB (Enum): [mysql+mysqldb](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.mysqldb)\n    MYSQL_PYMYSQL (Enum): [mysql+pymysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.pymysql)\n    MYSQL_MYSQLCONNECTOR (Enum): [mysql+mysqlconnector](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.mysqlconnector)\n    MYSQL_CYMYSQL (Enum): [mysql+cymysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.cymysql)\n    MYSQL_OURSQL (Enum): [mysql+oursql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.oursql)\n    MYSQL_PYODBC (Enum): [mysql+pyodbc](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.pyodbc)\n\n    SQLITE_PYSQLITE (Enum): [sqlite+pysqlite](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.pysqlite)\n    SQLITE_PYSQLCIPHER (Enum): [sqlite+pysqlcipher](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.pysqlcipher)\n\n    ORACLE_CX_ORACLE (Enum): [oracle+cx_oracle](https://docs.sqlalchemy.org/en/14/dialects/oracle.html#module-sqlalchemy.dialects.oracle.cx_oracle)\n\n    MSSQL_PYODBC (Enum): [mssql+pyodbc](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.pyodbc)\n    MSSQL_MXODBC (Enum): [mssql+mxodbc](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.mxodbc)\n    MSSQL_PYMSSQL (Enum): [mssql+pymssql](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.pymssql)", "enum": ["postgresql+psycopg2", "postgresql+pg8000", "postgresql+psycopg2cffi", "postgresql+pypostgresql", "postgresql+pygresql", "mysql+mysqldb", "mysql+pymysql", "mysql+mysqlconnector", "mysql+cymysql", "mysql+oursql", "mysql+pyodbc", "sqlite+pysqlite", "sqlite+pysqlcipher", "oracle+cx_oracle", "mssql+pyodbc", "mssql+mxodbc", "mssql+pymssql"]}}}','b77fe1fa-f60a-4037-94ff-4a28fd5f9ca0','sha256:01e6c0bdaac125860811b201f5a5e98ffefd5f8a49f1398b6996aec362643acc','[]','non-versioned');
INSERT INTO "block_schema" VALUES('7c783689-0127-440a-a359-4feaadfec064','2026-12-06 04:42:15.184606','2026-12-06 04:42:15.184669','{"title": "DatabaseCredentials", "description": "Block used to manage authentication with a database.", "type": "object", "properties": {"driver": {"title": "Driver", "description": "The driver name to use.", "anyOf": [{"$ref": "#/definitions/AsyncDriver"}, {"$ref": "#/definitions/SyncDriver"}, {"type": "string"}]}, "username": {"title": "Username", "description": "The user name used to authenticate.", "type": "string"}, "password": {"title": "Password", "description": "The password used to authenticate.", "type": "string", "writeOnly": true, "format": "password"}, "database": {"title": "Database", "description": "The name of the database to use.", "type": "string"}, "host": {"title": "Host", "description": "The host address of the database.", "type": "string"}, "port": {"title": "Port", "description": "The port to connect to the database.", "type": "string"}, "query": {"title": "Query", "description": "A dictionary of string keys to string values to be passed to the dialect and/or the DBAPI upon connect. To specify non-string parameters to a Python DBAPI directly, use connect_args.", "type": "object", "additionalProperties": {"type": "string"}}, "url": {"title": "Url", "description": "Manually create and provide a URL to create the engine, this is useful for external dialects, e.g. Snowflake, because some of the params, such as ''warehouse'', is not directly supported in the vanilla `sqlalchemy.engine.URL.create` method; do not provide this alongside with other URL params as it will raise a `ValueError`.", "minLength": 1, "maxLength": 65536, "format": "uri", "type": "string"}, "connect_args": {"title": "Connect Args", "description": "The options which will be passed directly to the DBAPI''s connect() method as additional keyword arguments.", "type": "object"}}, "block_type_slug": "database-credentials", "secret_fields": ["password"], "definitions": {"AsyncDriver": {"title": "AsyncDriver", "description": "Known dialects with their corresponding async drivers.\n\nAttributes:\n    POSTGRESQL_ASYNCPG (Enum): [postgresql+asyncpg](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.asyncpg)\n\n    SQLITE_AIOSQLITE (Enum): [sqlite+aiosqlite](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.aiosqlite)\n\n    MYSQL_ASYNCMY (Enum): [mysql+asyncmy](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.asyncmy)\n    MYSQL_AIOMYSQL (Enum): [mysql+aiomysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.aiomysql)", "enum": ["postgresql+asyncpg", "sqlite+aiosqlite", "mysql+asyncmy", "mysql+aiomysql"]}, "SyncDriver": {"title": "SyncDriver", "description": "Known dialects with their corresponding sync drivers.\n\nAttributes:\n    POSTGRESQL_PSYCOPG2 (Enum): [postgresql+psycopg2](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.psycopg2)\n    POSTGRESQL_PG8000 (Enum): [postgresql+pg8000](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pg8000)\n    POSTGRESQL_PSYCOPG2CFFI (Enum): [postgresql+psycopg2cffi](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.psycopg2cffi)\n    POSTGRESQL_PYPOSTGRESQL (Enum): [postgresql+pypostgresql](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pypostgresql)\n    POSTGRESQL_PYGRESQL (Enum): [postgresql+pygresql](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pygresql)\n\n    MYSQL_MYSQLDB (Enum): [mysql+mysqldb](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.mysqldb)\n    MYSQL_PYMYSQL (Enum): [mysql+pymysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.pymysql)\n    MYSQL_MYSQLCONNECTOR (Enum): [mysql+mysqlconnector](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.mysqlconnector)\n    MYSQL_CYMYSQL (Enum): [mysql+cymysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.cymysql)\n    MYSQL_OURSQL (Enum): [mysql+oursql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.oursql)\n    MYSQL_PYODBC (Enum): [mysql+pyodbc](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.pyodbc)\n\n    SQLITE_PYSQLITE (Enum): [sqlite+pysqlite](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.pysqlite)\n    SQLITE_PYSQLCIPHER (Enum): [sqlite+pysqlcipher](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.pysqlcipher)\n\n    ORACLE_CX_ORACLE (Enum): [oracle+cx_oracle](https://docs.sqlalchemy.org/en/14/dialects/oracle.html#module-sqlalchemy.dialects.oracle.cx_oracle)\n\n    MSSQL_PYODBC (Enum): [mssql+pyodbc](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.pyodbc)\n    MSSQL_MXODBC (Enum): [mssql+mxodbc](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.mxodbc)\n    MSSQL_PYMSSQL (Enum): [mssql+pymssql](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.pymssql)", "enum": ["postgresql+psycopg2", "postgresql+pg8000", "postgresql+psycopg2cffi", "postgresql+pypostgresql", "postgresql+pygresql", "mysql+mysqldb", "mysql+pymysql", "mysql+mysqlconnector", "mysql+cymysql", "mysql+oursql", "mysql+pyodbc", "sqlite+pysqlite", "sqlite+pysqlcipher", "oracle+cx_oracle", "mssql+pyodbc", "mssql+mxodbc", "mssql+pymssql"]}, "ConnectionComponents": {"title": "ConnectionComponents", "description": "Parameters to use to create a SQLAlchemy engine URL.\n\nAttributes:\n    driver: The driver name to use.\n    database: The name of the database to use.\n    username: The user name used to authenticate.\n    password: The password used to authenticate.\n    host: The host address of the database.\n    port: The port to connect to the database.\n    query: A dictionary of string keys to string values to be passed to the dialect\n        and/or the DBAPI upon connect.", "type": "object", "properties": {"driver": {"title": "Driver", "description": "The driver name to use.", "anyOf": [{"$ref": "#/definitions/AsyncDriver"}, {"$ref": "#/definitions/SyncDriver"}, {"type": "string"}]}, "database": {"title": "Database", "description": "The name of the database to use.", "type": "string"}, "username": {"title": "Username", "description": "The user name used to authenticate.", "type": "string"}, "password": {"title": "Password", "description": "The password used to authenticate.", "type": "string", "writeOnly": true, "format": "password"}, "host": {"title": "Host", "description": "The host address of the database.", "type": "string"}, "port": {"title": "Port", "description": "The port to connect to the database.", "type": "string"}, "query": {"title": "Query", "description": "A dictionary of string keys to string values to be passed to the dialect and/or the DBAPI upon connect. To specify non-string parameters to a Python DBAPI directly, use connect_args.", "type": "object", "additionalProperties": {"type": "string"}}}, "required": ["driver", "database"]}}}','73d43af2-1d5a-4e7a-8940-3c2d537663be','sha256:64175f83f2ae15bef7893a4d9a02658f2b5288747d54594ca6d356dc42e9993c','[]','non-versioned');
INSERT INTO "block_schema" VALUES('2726bb5a-6cd7-436c-94cd-160b83ff3f54','2026-12-06 04:42:15.209134','2026-12-06 04:42:15.209242','{"title": "DbtCliProfile", "description": "Profile for use across dbt CLI tasks and flows.", "type": "object", "properties": {"name": {"title": "Name", "description": "Profile name used for populating profiles.yml.", "type": "string"}, "target": {"title": "Target", "description": "The default target your dbt project will use.", "type": "string"}, "target_configs": {"title": "Target Configs", "description": "Target configs contain credentials and settings, specific to the warehouse you''re connecting to.", "anyOf": [{"$ref": "#/definitions/SnowflakeTargetConfigs"}, {"$ref": "#/definitions/BigQueryTargetConfigs"}, {"$ref": "#/definitions/PostgresTargetConfigs"}, {"$ref": "#/definitions/TargetConfigs"}]}, "global_configs": {"title": "Global Configs", "description": "Global configs control things like the visual output of logs, the manner in which dbt parses your project, and what to do when dbt finds a version mismatch or a failing model.", "allOf": [{"$ref": "#/definitions/GlobalConfigs"}]}}, "required": ["name", "target", "target_configs"], "block_type_slug": "dbt-cli-profile", "secret_fields": ["target_configs.connector.credentials.password", "target_configs.connector.credentials.private_key", "target_configs.connector.credentials.private_key_passphrase", "target_configs.connector.credentials.token", "target_configs.credentials.service_account_info.*", "target_configs.credentials.connection_info.password", "target_configs.credentials.password"], "definitions": {"AsyncDriver": {"title": "AsyncDriver", "description": "Known dialects with their corresponding async drivers.\n\nAttributes:\n    POSTGRESQL_ASYNCPG (Enum): [postgresql+asyncpg](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.asyncpg)\n\n    SQLITE_AIOSQLITE (Enum): [sqlite+aiosqlite](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.aiosqlite)\n\n    MYSQL_ASYNCMY (Enum): [mysql+asyncmy](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.asyncmy)\n    MYSQL_AIOMYSQL (Enum): [mysql+aiomysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.aiomysql)", "enum": ["postgresql+asyncpg", "sqlite+aiosqlite", "mysql+asyncmy", "mysql+aiomysql"]}, "SyncDriver": {"title": "SyncDriver", "description": "Known dialects with their corresponding sync drivers.\n\nAttributes:\n    POSTGRESQL_PSYCOPG2 (Enum): [postgresql+psycopg2](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.psycopg2)\n    POSTGRESQL_PG8000 (Enum): [postgresql+pg8000](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pg8000)\n    POSTGRESQL_PSYCOPG2CFFI (Enum): [postgresql+psycopg2cffi](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.psycopg2cffi)\n    POSTGRESQL_PYPOSTGRESQL (Enum): [postgresql+pypostgresql](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pypostgresql)\n    POSTGRESQL_PYGRESQL (Enum): [postgresql+pygresql](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pygresql)\n\n    MYSQL_MYSQLDB (Enum): [mysql+mysqldb](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.mysqldb)\n    MYSQL_PYMYSQL (Enum): [mysql+pymysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.pymysql)\n    MYSQL_MYSQLCONNECTOR (Enum): [mysql+mysqlconnector](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.mysqlconnector)\n    MYSQL_CYMYSQL (Enum): [mysql+cymysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.cymysql)\n    MYSQL_OURSQL (Enum): [mysql+oursql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.oursql)\n    MYSQL_PYODBC (Enum): [mysql+pyodbc](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.pyodbc)\n\n    SQLITE_PYSQLITE (Enum): [sqlite+pysqlite](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.pysqlite)\n    SQLITE_PYSQLCIPHER (Enum): [sqlite+pysqlcipher](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.pysqlcipher)\n\n    ORACLE_CX_ORACLE (Enum): [oracle+cx_oracle](https://docs.sqlalchemy.org/en/14/dialects/oracle.html#module-sqlalchemy.dialects.oracle.cx_oracle)\n\n    MSSQL_PYODBC (Enum): [mssql+pyodbc](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.pyodbc)\n    MSSQL_MXODBC (Enum): [mssql+mxodbc](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.mxodbc)\n    MSSQL_PYMSSQL (Enum): [mssql+pymssql](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.pymssql)", "enum": ["postgresql+psycopg2", "postgresql+pg8000", "postgresql+psycopg2cffi", "postgresql+pypostgresql", "postgresql+pygresql", "mysql+mysqldb", "mysql+pymysql", "mysql+mysqlconnector", "mysql+cymysql", "mysql+oursql", "mysql+pyodbc", "sqlite+pysqlite", "sqlite+pysqlcipher", "oracle+cx_oracle", "mssql+pyodbc", "mssql+mxodbc", "mssql+pymssql"]}, "ConnectionComponents": {"title": "ConnectionComponents", "description": "Parameters to use to create a SQLAlchemy engine URL.\n\nAttributes:\n    driver: The driver name to use.\n    database: The name of the database to use.\n    username: The user name used to authenticate.\n    password: The password used to authenticate.\n    host: The host address of the database.\n    port: The port to connect to the database.\n    query: A dictionary of string keys to string values to be passed to the dialect\n        and/or the DBAPI upon connect.", "type": "object", "properties": {"driver": {"title": "Driver", "description": "The driver name to use.", "anyOf": [{"$ref": "#/definitions/AsyncDriver"}, {"$ref": "#/definitions/SyncDriver"}, {"type": "string"}]}, "database": {"title": "Database", "description": "The name of the database to use.", "type": "string"}, "username": {"title": "Username", "description": "The user name used to authenticate.", "type": "string"}, "password": {"title": "Password", "description": "The password used to authenticate.", "type": "string", "writeOnly": true, "format": "password"}, "host": {"title": "Host", "description": "The host address of the database.", "type": "string"}, "port": {"title": "Port", "description": "The port to connect to the database.", "type": "string"}, "query": {"title": "Query", "description": "A dictionary of string keys to string values to be passed to the dialect and/or the DBAPI upon connect. To specify non-string parameters to a Python DBAPI directly, use connect_args.", "type": "object", "additionalProperties": {"type": "string"}}}, "required": ["driver", "database"]}}}','ce40a9b9-c8cb-4c2f-858f-ffba7d2888ed','sha256:f55b0f96cb9e1cf2f508bb882b25d9246b351be8b0ad18140a73281674a40d6d','[]','0.4.1');
INSERT INTO "block_schema" VALUES('ee6d7a46-14b6-492f-b713-61dfa541958d','2026-12-06 04:42:15.230085','2026-12-06 04:42:15.230147','{"title": "SnowflakeTargetConfigs", "description": "Target configs contain credentials and\nsettings, specific to Snowflake.\nTo find valid keys, head to the [Snowflake Profile](\nhttps://docs.getdbt.com/reference/warehouse-profiles/snowflake-profile)\npage.", "type": "object", "properties": {"extras": {"title": "Extras", "description": "Extra target configs'' keywords, not yet exposed in prefect-dbt, but available in dbt.", "type": "object"}, "allow_field_overrides": {"title": "Allow Field Overrides", "description": "If enabled, fields from dbt target configs will override fields provided in extras and credentials.", "default": false, "type": "boolean"}, "type": {"title": "Type", "description": "The type of the target configs.", "default": "snowflake", "enum": ["snowflake"], "type": "string"}, "schema": {"title": "Schema", "description": "The schema to use for the target configs.", "type": "string"}, "threads": {"title": "Threads", "description": "The number of threads representing the max number of paths through the graph dbt may work on at once.", "default": 4, "type": "integer"}, "connector": {"title": "Connector", "description": "The connector to use.", "allOf": [{"$ref": "#/definitions/SnowflakeConnector"}]}}, "required": ["connector"], "block_type_slug": "dbt-cli-snowflake-target-configs", "secret_fields": ["connector.credentials.password", "connector.credentials.private_key", "connector.credentials.private_key_passphrase", "connector.credentials.token"], "definitions": {"AsyncDriver": {"title": "AsyncDriver", "description": "Known dialects with their corresponding async drivers.\n\nAttributes:\n    POSTGRESQL_ASYNCPG (Enum): [postgresql+asyncpg](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.asyncpg)\n\n    SQLITE_AIOSQLITE (Enum): [sqlite+aiosqlite](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.aiosqlite)\n\n    MYSQL_ASYNCMY (Enum): [mysql+asyncmy](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.asyncmy)\n    MYSQL_AIOMYSQL (Enum): [mysql+aiomysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.aiomysql)", "enum": ["postgresql+asyncpg", "sqlite+aiosqlite", "mysql+asyncmy", "mysql+aiomysql"]}, "SyncDriver": {"title": "SyncDriver", "description": "Known dialects with their corresponding sync drivers.\n\nAttributes:\n    POSTGRESQL_PSYCOPG2 (Enum): [postgresql+psycopg2](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.psycopg2)\n    POSTGRESQL_PG8000 (Enum): [postgresql+pg8000](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pg8000)\n    POSTGRESQL_PSYCOPG2CFFI (Enum): [postgresql+psycopg2cffi](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.psycopg2cffi)\n    POSTGRESQL_PYPOSTGRESQL (Enum): [postgresql+pypostgresql](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pypostgresql)\n    POSTGRESQL_PYGRESQL (Enum): [postgresql+pygresql](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pygresql)\n\n    MYSQL_MYSQLDB (Enum): [mysql+mysqldb](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.mysqldb)\n    MYSQL_PYMYSQL (Enum): [mysql+pymysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.pymysql)\n    MYSQL_MYSQLCONNECTOR (Enum): [mysql+mysqlconnector](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.mysqlconnector)\n    MYSQL_CYMYSQL (Enum): [mysql+cymysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.cymysql)\n    MYSQL_OURSQL (Enum): [mysql+oursql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.oursql)\n    MYSQL_PYODBC (Enum): [mysql+pyodbc](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.pyodbc)\n\n    SQLITE_PYSQLITE (Enum): [sqlite+pysqlite](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.pysqlite)\n    SQLITE_PYSQLCIPHER (Enum): [sqlite+pysqlcipher](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.pysqlcipher)\n\n    ORACLE_CX_ORACLE (Enum): [oracle+cx_oracle](https://docs.sqlalchemy.org/en/14/dialects/oracle.html#module-sqlalchemy.dialects.oracle.cx_oracle)\n\n    MSSQL_PYODBC (Enum): [mssql+pyodbc](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.pyodbc)\n    MSSQL_MXODBC (Enum): [mssql+mxodbc](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.mxodbc)\n    MSSQL_PYMSSQL (Enum): [mssql+pymssql](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.pymssql)", "enum": ["postgresql+psycopg2", "postgresql+pg8000", "postgresql+psycopg2cffi", "postgresql+pypostgresql", "postgresql+pygresql", "mysql+mysqldb", "mysql+pymysql", "mysql+mysqlconnector", "mysql+cymysql", "mysql+oursql", "mysql+pyodbc", "sqlite+pysqlite", "sqlite+pysqlcipher", "oracle+cx_oracle", "mssql+pyodbc", "mssql+mxodbc", "mssql+pymssql"]}, "ConnectionComponents": {"title": "ConnectionComponents", "description": "Parameters to use to create a SQLAlchemy engine URL.\n\nAttributes:\n    driver: The driver name to use.\n    database: The name of the database to use.\n    username: The user name used to authenticate.\n    password: The password used to authenticate.\n    host: The host address of the database.\n    port: The port to connect to the database.\n    query: A dictionary of string keys to string values to be passed to the dialect\n        and/or the DBAPI upon connect.", "type": "object", "properties": {"driver": {"title": "Driver", "description": "The driver name to use.", "anyOf": [{"$ref": "#/definitions/AsyncDriver"}, {"$ref": "#/definitions/SyncDriver"}, {"type": "string"}]}, "database": {"title": "Database", "description": "The name of the database to use.", "type": "string"}, "username": {"title": "Username", "description": "The user name used to authenticate.", "type": "string"}, "password": {"title": "Password", "description": "The password used to authenticate.", "type": "string", "writeOnly": true, "format": "password"}, "host": {"title": "Host", "description": "The host address of the database.", "type": "string"}, "port": {"title": "Port", "description": "The port to connect to the database.", "type": "string"}, "query": {"title": "Query", "description": "A dictionary of string keys to string values to be passed to the dialect and/or the DBAPI upon connect. To specify non-string parameters to a Python DBAPI directly, use connect_args.", "type": "object", "additionalProperties": {"type": "string"}}}, "required": ["driver", "database"]}}}','7e19fd25-41e5-4535-98d0-c1ea6a523364','sha256:a70fca75226dc280c38ab0dda3679d3b0ffdee21af4463f3fb1ad6278405e370','[]','non-versioned');
INSERT INTO "block_schema" VALUES('75516fca-30b5-440a-8265-14d4e1e389eb','2026-12-06 04:42:15.248770','2026-12-06 04:42:15.248829','{"title": "SnowflakeConnector", "description": "Perform data operations against a Snowflake database.", "type": "object", "properties": {"credentials": {"title": "Credentials", "description": "The credentials to authenticate with Snowflake.", "allOf": [{"$ref": "#/definitions/SnowflakeCredentials"}]}, "database": {"title": "Database", "description": "The name of the default database to use.", "type": "string"}, "warehouse": {"title": "Warehouse", "description": "The name of the default warehouse to use.", "type": "string"}, "schema": {"title": "Schema", "description": "The name of the default schema to use.", "type": "string"}, "fetch_size": {"title": "Fetch Size", "description": "The default number of rows to fetch at a time.", "default": 1, "type": "integer"}, "poll_frequency_s": {"title": "Poll Frequency [seconds]", "description": "The number of seconds between checking query status for long running queries.", "default": 1, "type": "integer"}}, "required": ["credentials", "database", "warehouse", "schema"], "block_type_slug": "snowflake-connector", "secret_fields": ["credentials.password", "credentials.private_key", "credentials.private_key_passphrase", "credentials.token"], "definitions": {"AsyncDriver": {"title": "AsyncDriver", "description": "Known dialects with their corresponding async drivers.\n\nAttributes:\n    POSTGRESQL_ASYNCPG (Enum): [postgresql+asyncpg](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.asyncpg)\n\n    SQLITE_AIOSQLITE (Enum): [sqlite+aiosqlite](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.aiosqlite)\n\n    MYSQL_ASYNCMY (Enum): [mysql+asyncmy](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.asyncmy)\n    MYSQL_AIOMYSQL (Enum): [mysql+aiomysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.aiomysql)", "enum": ["postgresql+asyncpg", "sqlite+aiosqlite", "mysql+asyncmy", "mysql+aiomysql"]}, "SyncDriver": {"title": "SyncDriver", "description": "Known dialects with their corresponding sync drivers.\n\nAttributes:\n    POSTGRESQL_PSYCOPG2 (Enum): [postgresql+psycopg2](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.psycopg2)\n    POSTGRESQL_PG8000 (Enum): [postgresql+pg8000](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pg8000)\n    POSTGRESQL_PSYCOPG2CFFI (Enum): [postgresql+psycopg2cffi](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.psycopg2cffi)\n    POSTGRESQL_PYPOSTGRESQL (Enum): [postgresql+pypostgresql](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pypostgresql)\n    POSTGRESQL_PYGRESQL (Enum): [postgresql+pygresql](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pygresql)\n\n    MYSQL_MYSQLDB (Enum): [mysql+mysqldb](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.mysqldb)\n    MYSQL_PYMYSQL (Enum): [mysql+pymysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.pymysql)\n    MYSQL_MYSQLCONNECTOR (Enum): [mysql+mysqlconnector](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.mysqlconnector)\n    MYSQL_CYMYSQL (Enum): [mysql+cymysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.cymysql)\n    MYSQL_OURSQL (Enum): [mysql+oursql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.oursql)\n    MYSQL_PYODBC (Enum): [mysql+pyodbc](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.pyodbc)\n\n    SQLITE_PYSQLITE (Enum): [sqlite+pysqlite](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.pysqlite)\n    SQLITE_PYSQLCIPHER (Enum): [sqlite+pysqlcipher](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.pysqlcipher)\n\n    ORACLE_CX_ORACLE (Enum): [oracle+cx_oracle](https://docs.sqlalchemy.org/en/14/dialects/oracle.html#module-sqlalchemy.dialects.oracle.cx_oracle)\n\n    MSSQL_PYODBC (Enum): [mssql+pyodbc](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.pyodbc)\n    MSSQL_MXODBC (Enum): [mssql+mxodbc](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.mxodbc)\n    MSSQL_PYMSSQL (Enum): [mssql+pymssql](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.pymssql)", "enum": ["postgresql+psycopg2", "postgresql+pg8000", "postgresql+psycopg2cffi", "postgresql+pypostgresql", "postgresql+pygresql", "mysql+mysqldb", "mysql+pymysql", "mysql+mysqlconnector", "mysql+cymysql", "mysql+oursql", "mysql+pyodbc", "sqlite+pysqlite", "sqlite+pysqlcipher", "oracle+cx_oracle", "mssql+pyodbc", "mssql+mxodbc", "mssql+pymssql"]}, "ConnectionComponents": {"title": "ConnectionComponents", "description": "Parameters to use to create a SQLAlchemy engine URL.\n\nAttributes:\n    driver: The driver name to use.\n    database: The name of the database to use.\n    username: The user name used to authenticate.\n    password: The password used to authenticate.\n    host: The host address of the database.\n    port: The port to connect to the database.\n    query: A dictionary of string keys to string values to be passed to the dialect\n        and/or the DBAPI upon connect.", "type": "object", "properties": {"driver": {"title": "Driver", "description": "The driver name to use.", "anyOf": [{"$ref": "#/definitions/AsyncDriver"}, {"$ref": "#/definitions/SyncDriver"}, {"type": "string"}]}, "database": {"title": "Database", "description": "The name of the database to use.", "type": "string"}, "username": {"title": "Username", "description": "The user name used to authenticate.", "type": "string"}, "password": {"title": "Password", "description": "The password used to authenticate.", "type": "string", "writeOnly": true, "format": "password"}, "host": {"title": "Host", "description": "The host address of the database.", "type": "string"}, "port": {"title": "Port", "description": "The port to connect to the database.", "type": "string"}, "query": {"title": "Query", "description": "A dictionary of string keys to string values to be passed to the dialect and/or the DBAPI upon connect. To specify non-string parameters to a Python DBAPI directly, use connect_args.", "type": "object", "additionalProperties": {"type": "string"}}}, "required": ["driver", "database"]}}}','f4272130-548e-481c-8705-c7de29a2d1f7','sha256:a8cba7cafe80dd13d0dc167f351c2dda8d17698b02c7a2f9e7e0fceb1da00994','[]','non-versioned');
INSERT INTO "block_schema" VALUES('7a6d3915-3dc6-4faf-a88b-063d6b16a6e1','2026-12-06 04:42:15.263219','2026-12-06 04:42:15.263280','{"title": "SnowflakeCredentials", "description": "Block used to manage authentication with Snowflake.", "type": "object", "properties": {"account": {"title": "Account", "description": "The snowflake account name.", "example": "nh12345.us-east-2.aws", "type": "string"}, "user": {"title": "User", "description": "The user name used to authenticate.", "type": "string"}, "password": {"title": "Password", "description": "The password used to authenticate.", "type": "string", "writeOnly": true, "format": "password"}, "private_key": {"title": "Private Key", "description": "The PEM used to authenticate.", "type": "string", "writeOnly": true, "format": "password"}, "private_key_path": {"title": "Private Key Path", "description": "The path to the private key.", "type": "string", "format": "path"}, "private_key_passphrase": {"title": "Private Key Passphrase", "description": "The password to use for the private key.", "type": "string", "writeOnly": true, "format": "password"}, "authenticator": {"title": "Authenticator", "description": "The type of authenticator to use for initializing connection.", "default": "snowflake", "enum": ["snowflake", "snowflake_jwt", "externalbrowser", "okta_endpoint", "oauth", "username_password_mfa"], "type": "string"}, "token": {"title": "Token", "description": "The OAuth or JWT Token to provide when authenticator is set to `oauth`.", "type": "string", "writeOnly": true, "format": "password"}, "endpoint": {"title": "Endpoint", "description": "The Okta endpoint to use when authenticator is set to `okta_endpoint`.", "type": "string"}, "role": {"title": "Role", "description": "The name of the default role to use.", "type": "string"}, "autocommit": {"title": "Autocommit", "description": "Whether to automatically commit.", "type": "boolean"}}, "required": ["account", "user"], "block_type_slug": "snowflake-credentials", "secret_fields": ["password", "private_key", "private_key_passphrase", "token"], "definitions": {"AsyncDriver": {"title": "AsyncDriver", "description": "Known dialects with their corresponding async drivers.\n\nAttributes:\n    POSTGRESQL_ASYNCPG (Enum): [postgresql+asyncpg](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.asyncpg)\n\n    SQLITE_AIOSQLITE (Enum): [sqlite+aiosqlite](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.aiosqlite)\n\n    MYSQL_ASYNCMY (Enum): [mysql+asyncmy](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.asyncmy)\n    MYSQL_AIOMYSQL (Enum): [mysql+aiomysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.aiomysql)", "enum": ["postgresql+asyncpg", "sqlite+aiosqlite", "mysql+asyncmy", "mysql+aiomysql"]}, "SyncDriver": {"title": "SyncDriver", "description": "Known dialects with their corresponding sync drivers.\n\nAttributes:\n    POSTGRESQL_PSYCOPG2 (Enum): [postgresql+psycopg2](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.psycopg2)\n    POSTGRESQL_PG8000 (Enum): [postgresql+pg8000](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pg8000)\n    POSTGRESQL_PSYCOPG2CFFI (Enum): [postgresql+psycopg2cffi](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.psycopg2cffi)\n    POSTGRESQL_PYPOSTGRESQL (Enum): [postgresql+pypostgresql](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pypostgresql)\n    POSTGRESQL_PYGRESQL (Enum): [postgresql+pygresql](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pygresql)\n\n    MYSQL_MYSQLDB (Enum): [mysql+mysqldb](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.mysqldb)\n    MYSQL_PYMYSQL (Enum): [mysql+pymysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.pymysql)\n    MYSQL_MYSQLCONNECTOR (Enum): [mysql+mysqlconnector](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.mysqlconnector)\n    MYSQL_CYMYSQL (Enum): [mysql+cymysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.cymysql)\n    MYSQL_OURSQL (Enum): [mysql+oursql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.oursql)\n    MYSQL_PYODBC (Enum): [mysql+pyodbc](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.pyodbc)\n\n    SQLITE_PYSQLITE (Enum): [sqlite+pysqlite](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.pysqlite)\n    SQLITE_PYSQLCIPHER (Enum): [sqlite+pysqlcipher](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.pysqlcipher)\n\n    ORACLE_CX_ORACLE (Enum): [oracle+cx_oracle](https://docs.sqlalchemy.org/en/14/dialects/oracle.html#module-sqlalchemy.dialects.oracle.cx_oracle)\n\n    MSSQL_PYODBC (Enum): [mssql+pyodbc](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.pyodbc)\n    MSSQL_MXODBC (Enum): [mssql+mxodbc](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.mxodbc)\n    MSSQL_PYMSSQL (Enum): [mssql+pymssql](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.pymssql)", "enum": ["postgresql+psycopg2", "postgresql+pg8000", "postgresql+psycopg2cffi", "postgresql+pypostgresql", "postgresql+pygresql", "mysql+mysqldb", "mysql+pymysql", "mysql+mysqlconnector", "mysql+cymysql", "mysql+oursql", "mysql+pyodbc", "sqlite+pysqlite", "sqlite+pysqlcipher", "oracle+cx_oracle", "mssql+pyodbc", "mssql+mxodbc", "mssql+pymssql"]}, "ConnectionComponents": {"title": "ConnectionComponents", "description": "Parameters to use to create a SQLAlchemy engine URL.\n\nAttributes:\n    driver: The driver name to use.\n    database: The name of the database to use.\n    username: The user name used to authenticate.\n    password: The password used to authenticate.\n    host: The host address of the database.\n    port: The port to connect to the database.\n    query: A dictionary of string keys to string values to be passed to the dialect\n        and/or the DBAPI upon connect.", "type": "object", "properties": {"driver": {"title": "Driver", "description": "The driver name to use.", "anyOf": [{"$ref": "#/definitions/AsyncDriver"}, {"$ref": "#/definitions/SyncDriver"}, {"type": "string"}]}, "database": {"title": "Database", "description": "The name of the database to use.", "type": "string"}, "username": {"title": "Username", "description": "The user name used to authenticate.", "type": "string"}, "password": {"title": "Password", "description": "The password used to authenticate.", "type": "string", "writeOnly": true, "format": "password"}, "host": {"title": "Host", "description": "The host address of the database.", "type": "string"}, "port": {"title": "Port", "description": "The port to connect to the database.", "type": "string"}, "query": {"title": "Query", "description": "A dictionary of string keys to string values to be passed to the dialect and/or the DBAPI upon connect. To specify non-string parameters to a Python DBAPI directly, use connect_args.", "type": "object", "additionalProperties": {"type": "string"}}}, "required": ["driver", "database"]}}}','64192f0c-d717-4a64-8fc8-c98675d9836e','sha256:35bea1e0ca2277b003ca6d1c220e59ce9a58330934c051fe26a549c2fa380b1f','[]','non-versioned');
INSERT INTO "block_schema" VALUES('c18a1ca6-7bcb-4ac0-9de8-ba9c404f089b','2026-12-06 04:42:15.313936','2026-12-06 04:42:15.314000','{"title": "TargetConfigs", "description": "Target configs contain credentials and\nsettings, specific to the warehouse you''re connecting to.\nTo find valid keys, head to the [Available adapters](\nhttps://docs.getdbt.com/docs/available-adapters) page and\nclick the desired adapter''s \"Profile Setup\" hyperlink.", "type": "object", "properties": {"extras": {"title": "Extras", "description": "Extra target configs'' keywords, not yet exposed in prefect-dbt, but available in dbt.", "type": "object"}, "allow_field_overrides": {"title": "Allow Field Overrides", "description": "If enabled, fields from dbt target configs will override fields provided in extras and credentials.", "default": false, "type": "boolean"}, "type": {"title": "Type", "description": "The name of the database warehouse.", "type": "string"}, "schema": {"title": "Schema", "description": "The schema that dbt will build objects into; in BigQuery, a schema is actually a dataset.", "type": "string"}, "threads": {"title": "Threads", "description": "The number of threads representing the max number of paths through the graph dbt may work on at once.", "default": 4, "type": "integer"}}, "required": ["type", "schema"], "block_type_slug": "dbt-cli-target-configs", "secret_fields": [], "definitions": {"AsyncDriver": {"title": "AsyncDriver", "description": "Known dialects with their corresponding async drivers.\n\nAttributes:\n    POSTGRESQL_ASYNCPG (Enum): [postgresql+asyncpg](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.asyncpg)\n\n    SQLITE_AIOSQLITE (Enum): [sqlite+aiosqlite](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.aiosqlite)\n\n    MYSQL_ASYNCMY (Enum): [mysql+asyncmy](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.asyncmy)\n    MYSQL_AIOMYSQL (Enum): [mysql+aiomysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.aiomysql)", "enum": ["postgresql+asyncpg", "sqlite+aiosqlite", "mysql+asyncmy", "mysql+aiomysql"]}, "SyncDriver": {"title": "SyncDriver", "description": "Known dialects with their corresponding sync drivers.\n\nAttributes:\n    POSTGRESQL_PSYCOPG2 (Enum): [postgresql+psycopg2](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.psycopg2)\n    POSTGRESQL_PG8000 (Enum): [postgresql+pg8000](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pg8000)\n    POSTGRESQL_PSYCOPG2CFFI (Enum): [postgresql+psycopg2cffi](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.psycopg2cffi)\n    POSTGRESQL_PYPOSTGRESQL (Enum): [postgresql+pypostgresql](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pypostgresql)\n    POSTGRESQL_PYGRESQL (Enum): [postgresql+pygresql](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pygresql)\n\n    MYSQL_MYSQLDB (Enum): [mysql+mysqldb](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.mysqldb)\n    MYSQL_PYMYSQL (Enum): [mysql+pymysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.pymysql)\n    MYSQL_MYSQLCONNECTOR (Enum): [mysql+mysqlconnector](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.mysqlconnector)\n    MYSQL_CYMYSQL (Enum): [mysql+cymysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.cymysql)\n    MYSQL_OURSQL (Enum): [mysql+oursql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.oursql)\n    MYSQL_PYODBC (Enum): [mysql+pyodbc](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.pyodbc)\n\n    SQLITE_PYSQLITE (Enum): [sqlite+pysqlite](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.pysqlite)\n    SQLITE_PYSQLCIPHER (Enum): [sqlite+pysqlcipher](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.pysqlcipher)\n\n    ORACLE_CX_ORACLE (Enum): [oracle+cx_oracle](https://docs.sqlalchemy.org/en/14/dialects/oracle.html#module-sqlalchemy.dialects.oracle.cx_oracle)\n\n    MSSQL_PYODBC (Enum): [mssql+pyodbc](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.pyodbc)\n    MSSQL_MXODBC (Enum): [mssql+mxodbc](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.mxodbc)\n    MSSQL_PYMSSQL (Enum): [mssql+pymssql](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.pymssql)", "enum": ["postgresql+psycopg2", "postgresql+pg8000", "postgresql+psycopg2cffi", "postgresql+pypostgresql", "postgresql+pygresql", "mysql+mysqldb", "mysql+pymysql", "mysql+mysqlconnector", "mysql+cymysql", "mysql+oursql", "mysql+pyodbc", "sqlite+pysqlite", "sqlite+pysqlcipher", "oracle+cx_oracle", "mssql+pyodbc", "mssql+mxodbc", "mssql+pymssql"]}, "ConnectionComponents": {"title": "ConnectionComponents", "description": "Parameters to use to create a SQLAlchemy engine URL.\n\nAttributes:\n    driver: The driver name to use.\n    database: The name of the database to use.\n    username: The user name used to authenticate.\n    password: The password used to authenticate.\n    host: The host address of the database.\n    port: The port to connect to the database.\n    query: A dictionary of string keys to string values to be passed to the dialect\n        and/or the DBAPI upon connect.", "type": "object", "properties": {"driver": {"title": "Driver", "description": "The driver name to use.", "anyOf": [{"$ref": "#/definitions/AsyncDriver"}, {"$ref": "#/definitions/SyncDriver"}, {"type": "string"}]}, "database": {"title": "Database", "description": "The name of the database to use.", "type": "string"}, "username": {"title": "Username", "description": "The user name used to authenticate.", "type": "string"}, "password": {"title": "Password", "description": "The password used to authenticate.", "type": "string", "writeOnly": true, "format": "password"}, "host": {"title": "Host", "description": "The host address of the database.", "type": "string"}, "port": {"title": "Port", "description": "The port to connect to the database.", "type": "string"}, "query": {"title": "Query", "description": "A dictionary of string keys to string values to be passed to the dialect and/or the DBAPI upon connect. To specify non-string parameters to a Python DBAPI directly, use connect_args.", "type": "object", "additionalProperties": {"type": "string"}}}, "required": ["driver", "database"]}}}','d73a6ec5-9331-4362-a7c9-c5fd1da4ff3f','sha256:d0c8411280a2529a973b70fb86142959008aad2fe3844c63ab03190e232f776a','[]','non-versioned');
INSERT INTO "block_schema" VALUES('7be7b94d-7704-40d7-8f39-4f2d1a407c77','2026-12-06 04:42:15.343543','2026-12-06 04:42:15.343601','{"title": "SnowflakeTargetConfigs", "description": "Target configs contain credentials and\nsettings, specific to Snowflake.\nTo find valid keys, head to the [Snowflake Profile](\nhttps://docs.getdbt.com/reference/warehouse-profiles/snowflake-profile)\npage.", "type": "object", "properties": {"extras": {"title": "Extras", "description": "Extra target configs'' keywords, not yet exposed in prefect-dbt, but available in dbt.", "type": "object"}, "allow_field_overrides": {"title": "Allow Field Overrides", "description": "If enabled, fields from dbt target configs will override fields provided in extras and credentials.", "default": false, "type": "boolean"}, "type": {"title": "Type", "description": "The type of the target configs.", "default": "snowflake", "enum": ["snowflake"], "type": "string"}, "schema": {"title": "Schema", "description": "The schema to use for the target configs.", "type": "string"}, "threads": {"title": "Threads", "description": "The number of threads representing the max number of paths through the graph dbt may work on at once.", "default": 4, "type": "integer"}, "connector": {"title": "Connector", "description": "The connector to use.", "allOf": [{"$ref": "#/definitions/SnowflakeConnector"}]}}, "required": ["connector"], "block_type_slug": "dbt-cli-snowflake-target-configs", "secret_fields": ["connector.credentials.password", "connector.credentials.private_key", "connector.credentials.private_key_passphrase", "connector.credentials.token"]}','7e19fd25-41e5-4535-98d0-c1ea6a523364','sha256:1e5be296bb63d7e2b04f0e9b99543db12521af269399d10e2bc290da4244a575','[]','0.4.1');
INSERT INTO "block_schema" VALUES('fac91b1d-efa8-45e6-98cf-1ac582d0155c','2026-12-06 04:42:15.356372','2026-12-06 04:42:15.356433','{"title": "SnowflakeConnector", "description": "Perform data operations against a Snowflake database.", "type": "object", "properties": {"credentials": {"title": "Credentials", "description": "The credentials to authenticate with Snowflake.", "allOf": [{"$ref": "#/definitions/SnowflakeCredentials"}]}, "database": {"title": "Database", "description": "The name of the default database to use.", "type": "string"}, "warehouse": {"title": "Warehouse", "description": "The name of the default warehouse to use.", "type": "string"}, "schema": {"title": "Schema", "description": "The name of the default schema to use.", "type": "string"}, "fetch_size": {"title": "Fetch Size", "description": "The default number of rows to fetch at a time.", "default": 1, "type": "integer"}, "poll_frequency_s": {"title": "Poll Frequency [seconds]", "description": "The number of seconds between checking query status for long running queries.", "default": 1, "type": "integer"}}, "required": ["credentials", "database", "warehouse", "schema"], "block_type_slug": "snowflake-connector", "secret_fields": ["credentials.password", "credentials.private_key", "credentials.private_key_passphrase", "credentials.token"]}','f4272130-548e-481c-8705-c7de29a2d1f7','sha256:dd0d36d69bbe0d44870fd754f3c00754e37e3f52209590083eaee4c585ce0bd0','[]','non-versioned');
INSERT INTO "block_schema" VALUES('b77f6b86-3e89-4d2b-a8a4-f4144a37506a','2026-12-06 04:42:15.370123','2026-12-06 04:42:15.370178','{"title": "SnowflakeCredentials", "description": "Block used to manage authentication with Snowflake.", "type": "object", "properties": {"account": {"title": "Account", "description": "The snowflake account name.", "example": "nh12345.us-east-2.aws", "type": "string"}, "user": {"title": "User", "description": "The user name used to authenticate.", "type": "string"}, "password": {"title": "Password", "description": "The password used to authenticate.", "type": "string", "writeOnly": true, "format": "password"}, "private_key": {"title": "Private Key", "description": "The PEM used to authenticate.", "type": "string", "writeOnly": true, "format": "password"}, "private_key_path": {"title": "Private Key Path", "description": "The path to the private key.", "type": "string", "format": "path"}, "private_key_passphrase": {"title": "Private Key Passphrase", "description": "The password to use for the private key.", "type": "string", "writeOnly": true, "format": "password"}, "authenticator": {"title": "Authenticator", "description": "The type of authenticator to use for initializing connection.", "default": "snowflake", "enum": ["snowflake", "snowflake_jwt", "externalbrowser", "okta_endpoint", "oauth", "username_password_mfa"], "type": "string"}, "token": {"title": "Token", "description": "The OAuth or JWT Token to provide when authenticator is set to `oauth`.", "type": "string", "writeOnly": true, "format": "password"}, "endpoint": {"title": "Endpoint", "description": "The Okta endpoint to use when authenticator is set to `okta_endpoint`.", "type": "string"}, "role": {"title": "Role", "description": "The name of the default role to use.", "type": "string"}, "autocommit": {"title": "Autocommit", "description": "Whether to automatically commit.", "type": "boolean"}}, "required": ["account", "user"], "block_type_slug": "snowflake-credentials", "secret_fields": ["password", "private_key", "private_key_passphrase", "token"]}','64192f0c-d717-4a64-8fc8-c98675d9836e','sha256:b24edfb413527c951cb2a8b4b4c16aec096523f871d941889e29ac2e6e92e036','[]','non-versioned');
INSERT INTO "block_schema" VALUES('b0ab9386-37e9-4f63-8b60-ac909294e97c','2026-12-06 04:42:15.389654','2026-12-06 04:42:15.389713','{"title": "TargetConfigs", "description": "Target configs contain credentials and\nsettings, specific to the warehouse you''re connecting to.\nTo find valid keys, head to the [Available adapters](\nhttps://docs.getdbt.com/docs/available-adapters) page and\nclick the desired adapter''s \"Profile Setup\" hyperlink.", "type": "object", "properties": {"extras": {"title": "Extras", "description": "Extra target configs'' keywords, not yet exposed in prefect-dbt, but available in dbt.", "type": "object"}, "allow_field_overrides": {"title": "Allow Field Overrides", "description": "If enabled, fields from dbt target configs will override fields provided in extras and credentials.", "default": false, "type": "boolean"}, "type": {"title": "Type", "description": "The name of the database warehouse.", "type": "string"}, "schema": {"title": "Schema", "description": "The schema that dbt will build objects into; in BigQuery, a schema is actually a dataset.", "type": "string"}, "threads": {"title": "Threads", "description": "The number of threads representing the max number of paths through the graph dbt may work on at once.", "default": 4, "type": "integer"}}, "required": ["type", "schema"], "block_type_slug": "dbt-cli-target-configs", "secret_fields": []}','d73a6ec5-9331-4362-a7c9-c5fd1da4ff3f','sha256:85f7476977e725617af89930889b843147320b2df37df911e24806dd6dacc870','[]','0.4.1');
INSERT INTO "block_schema" VALUES('c6a7ab0a-57fa-42d4-b63f-779dac93e31b','2026-12-06 04:42:15.404345','2026-12-06 04:42:15.404407','{"title": "DbtCloudCredentials", "description": "Credentials block for credential use across dbt Cloud tasks and flows.", "type": "object", "properties": {"api_key": {"title": "API Key", "description": "A dbt Cloud API key to use for authentication.", "type": "string", "writeOnly": true, "format": "password"}, "account_id": {"title": "Account ID", "description": "The ID of your dbt Cloud account.", "type": "integer"}, "domain": {"title": "Domain", "description": "The base domain of your dbt Cloud instance.", "default": "cloud.getdbt.com", "type": "string"}}, "required": ["api_key", "account_id"], "block_type_slug": "dbt-cloud-credentials", "secret_fields": ["api_key"]}','460adc25-6963-4662-ab2c-bbe1ec55a34a','sha256:0e1b2e94e09041e7d732822354503e87b99ddb31422d9d2c83c671be249aa231','[]','0.4.1');
INSERT INTO "block_schema" VALUES('8ac19578-bb4f-4bb3-901c-a8c04ac3eef5','2026-12-06 04:42:15.419924','2026-12-06 04:42:15.419982','{"title": "DbtCoreOperation", "description": "A block representing a dbt operation, containing multiple dbt and shell commands.\n\nFor long-lasting operations, use the trigger method and utilize the block as a\ncontext manager for automatic closure of processes when context is exited.\nIf not, manually call the close method to close processes.\n\nFor short-lasting operations, use the run method. Context is automatically managed\nwith this method.", "type": "object", "properties": {"commands": {"title": "Commands", "description": "A list of commands to execute sequentially.", "type": "array", "items": {"type": "string"}}, "stream_output": {"title": "Stream Output", "description": "Whether to stream output.", "default": true, "type": "boolean"}, "env": {"title": "Environment Variables", "description": "Environment variables to use for the subprocess.", "type": "object", "additionalProperties": {"type": "string"}}, "working_dir": {"title": "Working Directory", "description": "The absolute path to the working directory the command will be executed within.", "format": "directory-path", "type": "string"}, "shell": {"title": "Shell", "description": "The shell to run the command with; if unset, defaults to `powershell` on Windows and `bash` on other platforms.", "type": "string"}, "extension": {"title": "Extension", "description": "The extension to use for the temporary file; if unset, defaults to `.ps1` on Windows and `.sh` on other platforms.", "type": "string"}, "profiles_dir": {"title": "Profiles Dir", "description": "The directory to search for the profiles.yml file. Setting this appends the `--profiles-dir` option to the dbt commands provided. If this is not set, will try using the DBT_PROFILES_DIR environment variable, but if that''s also not set, will use the default directory `$HOME/.dbt/`.", "type": "string", "format": "path"}, "project_dir": {"title": "Project Dir", "description": "The directory to search for the dbt_project.yml file. Default is the current working directory and its parents.", "type": "string", "format": "path"}, "overwrite_profiles": {"title": "Overwrite Profiles", "description": "Whether the existing profiles.yml file under profiles_dir should be overwritten with a new profile.", "default": false, "type": "boolean"}, "dbt_cli_profile": {"title": "Dbt Cli Profile", "description": "Profiles class containing the profile written to profiles.yml. Note! This is optional and will raise an error if profiles.yml already exists under profile_dir and overwrite_profiles is set to False.", "allOf": [{"$ref": "#/definitions/DbtCliProfile"}]}}, "required": ["commands"], "block_type_slug": "dbt-core-operation", "secret_fields": ["dbt_cli_profile.target_configs.connector.credentials.password", "dbt_cli_profile.target_configs.connector.credentials.private_key", "dbt_cli_profile.target_configs.connector.credentials.private_key_passphrase", "dbt_cli_profile.target_configs.connector.credentials.token", "dbt_cli_profile.target_configs.credentials.service_account_info.*", "dbt_cli_profile.target_configs.credentials.connection_info.password", "dbt_cli_profile.target_configs.credentials.password"], "definitions": {"AsyncDriver": {"title": "AsyncDriver", "description": "Known dialects with their corresponding async drivers.\n\nAttributes:\n    POSTGRESQL_ASYNCPG (Enum): [postgresql+asyncpg](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.asyncpg)\n\n    SQLITE_AIOSQLITE (Enum): [sqlite+aiosqlite](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.aiosqlite)\n\n    MYSQL_ASYNCMY (Enum): [mysql+asyncmy](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.asyncmy)\n    MYSQL_AIOMYSQL (Enum): [mysql+aiomysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.aiomysql)", "enum": ["postgresql+asyncpg", "sqlite+aiosqlite", "mysql+asyncmy", "mysql+aiomysql"]}, "SyncDriver": {"title": "SyncDriver", "description": "Known dialects with their corresponding sync drivers.\n\nAttributes:\n    POSTGRESQL_PSYCOPG2 (Enum): [postgresql+psycopg2](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.psycopg2)\n    POSTGRESQL_PG8000 (Enum): [postgresql+pg8000](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pg8000)\n    POSTGRESQL_PSYCOPG2CFFI (Enum): [postgresql+psycopg2cffi](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.psycopg2cffi)\n    POSTGRESQL_PYPOSTGRESQL (Enum): [postgresql+pypostgresql](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pypostgresql)\n    POSTGRESQL_PYGRESQL (Enum): [postgresql+pygresql](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pygresql)\n\n    MYSQL_MYSQLDB (Enum): [mysql+mysqldb](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.mysqldb)\n    MYSQL_PYMYSQL (Enum): [mysql+pymysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.pymysql)\n    MYSQL_MYSQLCONNECTOR (Enum): [mysql+mysqlconnector](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.mysqlconnector)\n    MYSQL_CYMYSQL (Enum): [mysql+cymysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.cymysql)\n    MYSQL_OURSQL (Enum): [mysql+oursql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.oursql)\n    MYSQL_PYODBC (Enum): [mysql+pyodbc](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.pyodbc)\n\n    SQLITE_PYSQLITE (Enum): [sqlite+pysqlite](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.pysqlite)\n    SQLITE_PYSQLCIPHER (Enum): [sqlite+pysqlcipher](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.pysqlcipher)\n\n    ORACLE_CX_ORACLE (Enum): [oracle+cx_oracle](https://docs.sqlalchemy.org/en/14/dialects/oracle.html#module-sqlalchemy.dialects.oracle.cx_oracle)\n\n    MSSQL_PYODBC (Enum): [mssql+pyodbc](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.pyodbc)\n    MSSQL_MXODBC (Enum): [mssql+mxodbc](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.mxodbc)\n    MSSQL_PYMSSQL (Enum): [mssql+pymssql](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.pymssql)", "enum": ["postgresql+psycopg2", "postgresql+pg8000", "postgresql+psycopg2cffi", "postgresql+pypostgresql", "postgresql+pygresql", "mysql+mysqldb", "mysql+pymysql", "mysql+mysqlconnector", "mysql+cymysql", "mysql+oursql", "mysql+pyodbc", "sqlite+pysqlite", "sqlite+pysqlcipher", "oracle+cx_oracle", "mssql+pyodbc", "mssql+mxodbc", "mssql+pymssql"]}, "ConnectionComponents": {"title": "ConnectionComponents", "description": "Parameters to use to create a SQLAlchemy engine URL.\n\nAttributes:\n    driver: The driver name to use.\n    database: The name of the database to use.\n    username: The user name used to authenticate.\n    password: The password used to authenticate.\n    host: The host address of the database.\n    port: The port to connect to the database.\n    query: A dictionary of string keys to string values to be passed to the dialect\n        and/or the DBAPI upon connect.", "type": "object", "properties": {"driver": {"title": "Driver", "description": "The driver name to use.", "anyOf": [{"$ref": "#/definitions/AsyncDriver"}, {"$ref": "#/definitions/SyncDriver"}, {"type": "string"}]}, "database": {"title": "Database", "description": "The name of the database to use.", "type": "string"}, "username": {"title": "Username", "description": "The user name used to authenticate.", "type": "string"}, "password": {"title": "Password", "description": "The password used to authenticate.", "type": "string", "writeOnly": true, "format": "password"}, "host": {"title": "Host", "description": "The host address of the database.", "type": "string"}, "port": {"title": "Port", "description": "The port to connect to the database.", "type": "string"}, "query": {"title": "Query", "description": "A dictionary of string keys to string values to be passed to the dialect and/or the DBAPI upon connect. To specify non-string parameters to a Python DBAPI directly, use connect_args.", "type": "object", "additionalProperties": {"type": "string"}}}, "required": ["driver", "database"]}}}','f061388f-caa3-4ce0-8cd7-7afae1cd3326','sha256:0f685bc693353f66d1fc83687c8af67511feba052b5343506033141c9a2441c7','[]','0.4.1');
INSERT INTO "block_schema" VALUES('26c3764c-cfaf-413e-b50a-f159453f7dc8','2026-12-06 04:42:15.451943','2026-12-06 04:42:15.452006','{"title": "DockerHost", "description": "Store settings for interacting with a Docker host.", "type": "object", "properties": {"base_url": {"title": "Base URL", "description": "URL to the Docker host.", "example": "unix:///var/run/docker.sock", "type": "string"}, "version": {"title": "Version", "description": "The version of the API to use", "default": "auto", "type": "string"}, "timeout": {"title": "Timeout", "description": "Default timeout for API calls, in seconds.", "type": "integer"}, "max_pool_size": {"title": "Max Pool Size", "description": "The maximum number of connections to save in the pool.", "type": "integer"}, "client_kwargs": {"title": "Additional Configuration", "description": "Additional keyword arguments to pass to `docker.from_env()` or `DockerClient`.", "type": "object"}}, "block_type_slug": "docker-host", "secret_fields": []}','17b83265-c600-4acb-bc8f-e6557a9657ca','sha256:bf0961e9f2d88fd81bca2c7b78c025bd289776ad84ae8ef22d8f3db8b9561478','[]','0.4.5');
INSERT INTO "block_schema" VALUES('bc81a69b-37cf-4814-bdf4-d67145a4663b','2026-12-06 04:42:15.465640','2026-12-06 04:42:15.465704','{"title": "DockerRegistryCredentials", "description": "Store credentials for interacting with a Docker Registry.", "type": "object", "properties": {"username": {"title": "Username", "description": "The username to log into the registry with.", "type": "string"}, "password": {"title": "Password", "description": "The password to log into the registry with.", "type": "string", "writeOnly": true, "format": "password"}, "registry_url": {"title": "Registry Url", "description": "The URL to the registry. Generally, \"http\" or \"https\" can be omitted.", "example": "index.docker.io", "type": "string"}, "reauth": {"title": "Reauth", "description": "Whether or not to reauthenticate on each interaction.", "default": true, "type": "boolean"}}, "required": ["username", "password", "registry_url"], "block_type_slug": "docker-registry-credentials", "secret_fields": ["password"]}','69335185-00dc-419e-9dd9-cc2bbd12ecec','sha256:d5cbcfdf092e1f904ea26c274fcd0f23d86ecbbd0afae0f254f575ac3e40915d','[]','0.4.5');
INSERT INTO "block_schema" VALUES('b244118a-ddde-4e40-83b8-ce1e36f0f648','2026-12-06 04:42:15.480739','2026-12-06 04:42:15.480803','{"title": "EmailServerCredentials", "description": "Block used to manage generic email server authentication.\nIt is recommended you use a\n[Google App Password](https://support.google.com/accounts/answer/185833)\nif you use Gmail.", "type": "object", "properties": {"username": {"title": "Username", "description": "The username to use for authentication to the server. Unnecessary if SMTP login is not required.", "type": "string"}, "password": {"title": "Password", "description": "The password to use for authentication to the server. Unnecessary if SMTP login is not required.", "type": "string", "writeOnly": true, "format": "password"}, "smtp_server": {"title": "SMTP Server", "description": "Either the hostname of the SMTP server, or one of the keys from the built-in SMTPServer Enum members, like ''gmail''.", "default": "smtp.gmail.com", "anyOf": [{"$ref": "#/definitions/SMTPServer"}, {"type": "string"}]}, "smtp_type": {"title": "SMTP Type", "description": "Either ''SSL'', ''STARTTLS'', or ''INSECURE''.", "default": 465, "anyOf": [{"$ref": "#/definitions/SMTPType"}, {"type": "string"}]}, "smtp_port": {"title": "SMTP Port", "description": "If provided, overrides the smtp_type''s default port number.", "type": "integer"}}, "block_type_slug": "email-server-credentials", "secret_fields": ["password"], "definitions": {"SMTPServer": {"title": "SMTPServer", "description": "Server used to send email.", "enum": ["smtp.aol.com", "smtp.mail.att.net", "smtp.comcast.net", "smtp.mail.me.com", "smtp.gmail.com", "smtp-mail.outlook.com", "smtp.mail.yahoo.com"]}, "SMTPType": {"title": "SMTPType", "description": "Protocols used to secure email transmissions.", "enum": [465, 587, 25]}}}','1cd54fbe-1d08-4c45-bb56-c9efa0227949','sha256:56d6491f4b2d4aaae5ce604652416f44d0c8fa39ca68c5f747aee7cb518a41d0','[]','0.3.2');
INSERT INTO "block_schema" VALUES('61ff9a00-a46a-4e2d-b223-3240992221d9','2026-12-06 04:42:15.500626','2026-12-06 04:42:15.500704','{"title": "BigQueryWarehouse", "description": "A block for querying a database with BigQuery.\n\nUpon instantiating, a connection to BigQuery is established\nand maintained for the life of the object until the close method is called.\n\nIt is recommended to use this block as a context manager, which will automatically\nclose the connection and its cursors when the context is exited.\n\nIt is also recommended that this block is loaded and consumed within a single task\nor flow because if the block is passed across separate tasks and flows,\nthe state of the block''s connection and cursor could be lost.", "type": "object", "properties": {"gcp_credentials": {"$ref": "#/definitions/GcpCredentials"}, "fetch_size": {"title": "Fetch Size", "description": "The number of rows to fetch at a time.", "default": 1, "type": "integer"}}, "required": ["gcp_credentials"], "block_type_slug": "bigquery-warehouse", "secret_fields": ["gcp_credentials.service_account_info.*"]}','de4d28b0-d814-42dd-a131-4b2a6316f562','sha256:e8495199f3b490e3b15ba1bc67a97cf04b23aa8a7cba67161291d7cbc882d025','[]','0.5.8');
INSERT INTO "block_schema" VALUES('143d2ead-62c3-4448-953b-1d877d6edd68','2026-12-06 04:42:15.543130','2026-12-06 04:42:15.543199','{"title": "GcpCredentials", "description": "Block used to manage authentication with GCP. Google authentication is\nhandled via the `google.oauth2` module or through the CLI.\nSpecify either one of service `account_file` or `service_account_info`; if both\nare not specified, the client will try to detect the credentials following Google''s\n[Application Default Credentials](https://cloud.google.com/docs/authentication/application-default-credentials).\nSee Google''s [Authentication documentation](https://cloud.google.com/docs/authentication#service-accounts)\nfor details on inference and recommended authentication patterns.", "type": "object", "properties": {"service_account_file": {"title": "Service Account File", "description": "Path to the service account JSON keyfile.", "type": "string", "format": "path"}, "service_account_info": {"title": "Service Account Info", "description": "The contents of the keyfile as a dict.", "type": "object"}, "project": {"title": "Project", "description": "The GCP project to use for the client.", "type": "string"}}, "block_type_slug": "gcp-credentials", "secret_fields": ["service_account_info.*"]}','a390f6e9-0fc6-4103-ae8f-6166cb2af576','sha256:f764f9c506a2bed9e5ed7cc9083d06d95f13c01c8c9a9e45bae5d9b4dc522624','[]','0.5.8');
INSERT INTO "block_schema" VALUES('c2321f6a-0f2c-4f67-b7cd-c36d34e590d1','2026-12-06 04:42:15.567521','2026-12-06 04:42:15.567591','{"title": "GcpSecret", "description": "Manages a secret in Google Cloud Platform''s Secret Manager.", "type": "object", "properties": {"gcp_credentials": {"$ref": "#/definitions/GcpCredentials"}, "secret_name": {"title": "Secret Name", "description": "Name of the secret to manage.", "type": "string"}, "secret_version": {"title": "Secret Version", "description": "Version number of the secret to use.", "default": "latest", "type": "string"}}, "required": ["gcp_credentials", "secret_name"], "block_type_slug": "gcpsecret", "secret_fields": ["gcp_credentials.service_account_info.*"]}','e7db177a-78c0-4c08-ae41-da1264350b30','sha256:0311dc4cd2480a4af70d3b30ecd14d296243e73e7245ba064b753e4c0b25acdf','[]','0.5.8');
INSERT INTO "block_schema" VALUES('a174227b-60b3-4656-aef1-831c7f9f69bf','2026-12-06 04:42:15.603541','2026-12-06 04:42:15.603601','{"title": "GcsBucket", "description": "Block used to store data using GCP Cloud Storage Buckets.\n\nNote! `GcsBucket` in `prefect-gcp` is a unique block, separate from `GCS`\nin core Prefect. `GcsBucket` does not use `gcsfs` under the hood,\ninstead using the `google-cloud-storage` package, and offers more configuration\nand functionality.", "type": "object", "properties": {"bucket": {"title": "Bucket", "description": "Name of the bucket.", "type": "string"}, "gcp_credentials": {"title": "Gcp Credentials", "description": "The credentials to authenticate with GCP.", "allOf": [{"$ref": "#/definitions/GcpCredentials"}]}, "bucket_folder": {"title": "Bucket Folder", "description": "A default path to a folder within the GCS bucket to use for reading and writing objects.", "default": "", "type": "string"}}, "required": ["bucket"], "block_type_slug": "gcs-bucket", "secret_fields": ["gcp_credentials.service_account_info.*"]}','d034d258-7fcb-4019-bd27-6d8c935d47ae','sha256:6f44cdbd523fb8d4029fbc504a89095d67d27439aec09d2c1871b03a1f4e14e9','["get-directory", "put-directory", "read-path", "write-path"]','0.5.8');
INSERT INTO "block_schema" VALUES('a2443a71-3bc1-4b38-b0c5-773c29245649','2026-12-06 04:42:15.630738','2026-12-06 04:42:15.630799','{"title": "GitHubCredentials", "description": "Block used to manage GitHub authentication.", "type": "object", "properties": {"token": {"title": "Token", "description": "A GitHub personal access token (PAT).", "type": "string", "writeOnly": true, "format": "password"}}, "block_type_slug": "github-credentials", "secret_fields": ["token"]}','28d375f7-2bae-4a6c-ac29-5af48ff8fdc6','sha256:74a34b668838ba661d9160ab127053dd44a22dd04e89562839645791e70d046a','[]','0.2.2');
INSERT INTO "block_schema" VALUES('69c7ccac-2d0e-4278-9a13-0cfb9f467b39','2026-12-06 04:42:15.646167','2026-12-06 04:42:15.646228','{"title": "GitHubRepository", "description": "Interact with files stored on GitHub repositories.", "type": "object", "properties": {"repository_url": {"title": "Repository URL", "description": "The URL of a GitHub repository to read from, in either HTTPS or SSH format. If you are using a private repo, it must be in the HTTPS format.", "type": "string"}, "reference": {"title": "Reference", "description": "An optional reference to pin to; can be a branch name or tag.", "type": "string"}, "credentials": {"title": "Credentials", "description": "An optional GitHubCredentials block for using private GitHub repos.", "allOf": [{"$ref": "#/definitions/GitHubCredentials"}]}}, "required": ["repository_url"], "block_type_slug": "github-repository", "secret_fields": ["credentials.token"]}','58d42e0a-857d-4485-9aa3-c8823d90bd52','sha256:3d2b2de1cd9336264ccc73f7078264d9053dc956941136516e18050c9953abf0','["get-directory"]','0.2.2');
INSERT INTO "block_schema" VALUES('33e9aacf-9e2a-4e04-b546-4fb56ef8aee1','2026-12-06 04:42:15.675042','2026-12-06 04:42:15.675141','{"title": "GitLabCredentials", "description": "Store a GitLab personal access token to interact with private GitLab\nrepositories.", "type": "object", "properties": {"token": {"title": "Token", "description": "A GitLab Personal Access Token with read_repository scope.", "name": "Personal Access Token", "type": "string", "writeOnly": true, "format": "password"}, "url": {"title": "URL", "description": "URL to self-hosted GitLab instances.", "type": "string"}}, "block_type_slug": "gitlab-credentials", "secret_fields": ["token"]}','2c0c2904-85cf-4c9b-9858-4e43b24d239e','sha256:7d8d6317127bc66afe9e97ae5658ee8e1decdc598350eb292fb62be379f0246c','[]','0.2.2');
INSERT INTO "block_schema" VALUES('2f884cec-08ec-421a-a1c6-7c46356fff7d','2026-12-06 04:42:15.687590','2026-12-06 04:42:15.687652','{"title": "GitLabRepository", "description": "Interact with files stored in GitLab repositories.", "type": "object", "properties": {"repository": {"title": "Repository", "description": "The URL of a GitLab repository to read from, in either HTTP/HTTPS or SSH format.", "type": "string"}, "reference": {"title": "Reference", "description": "An optional reference to pin to; can be a branch name or tag.", "type": "string"}, "credentials": {"title": "Credentials", "description": "An optional GitLab Credentials block for authenticating with private GitLab repos.", "allOf": [{"$ref": "#/definitions/GitLabCredentials"}]}}, "required": ["repository"], "block_type_slug": "gitlab-repository", "secret_fields": ["credentials.token"]}','65ac8778-eaa3-43fa-8e9c-5f4efa4b439f','sha256:ac874a97e2ff2403a4b63181b6ae85dd51b4a0df0337d290d922627f5123af44','["get-directory"]','0.2.2');
INSERT INTO "block_schema" VALUES('6f3c61fa-3e83-48fc-89a4-f710e939e28f','2026-12-06 04:42:15.709809','2026-12-06 04:42:15.709865','{"title": "KubernetesClusterConfig", "description": "Stores configuration for interaction with Kubernetes clusters.\n\nSee `from_file` for creation.", "type": "object", "properties": {"config": {"title": "Config", "description": "The entire contents of a kubectl config file.", "type": "object"}, "context_name": {"title": "Context Name", "description": "The name of the kubectl context to use.", "type": "string"}}, "required": ["config", "context_name"], "block_type_slug": "kubernetes-cluster-config", "secret_fields": []}','4ed0fc0c-0b19-4f16-8283-5bda7e4f654b','sha256:90d421e948bfbe4cdc98b124995f0edd0f84b0837549ad1390423bad8e31cf3b','[]','0.4.0');
INSERT INTO "block_schema" VALUES('67b218b9-b5e4-4afc-8c40-9414214fb3a6','2026-12-06 04:42:15.721766','2026-12-06 04:42:15.721827','{"title": "KubernetesCredentials", "description": "Credentials block for generating configured Kubernetes API clients.", "type": "object", "properties": {"cluster_config": {"$ref": "#/definitions/KubernetesClusterConfig"}}, "block_type_slug": "kubernetes-credentials", "secret_fields": []}','82bc7976-d1a9-421e-b663-ee751733a59e','sha256:957fa8dca90bd1b5fb9c575ee09e80b454116c0b134287fbc2eff47a72564c3b','[]','0.3.7');
INSERT INTO "block_schema" VALUES('d8fecc15-2752-4599-b161-d535fa9bf394','2026-12-06 04:42:15.747156','2026-12-06 04:42:15.747217','{"title": "ShellOperation", "description": "A block representing a shell operation, containing multiple commands.\n\nFor long-lasting operations, use the trigger method and utilize the block as a\ncontext manager for automatic closure of processes when context is exited.\nIf not, manually call the close method to close processes.\n\nFor short-lasting operations, use the run method. Context is automatically managed\nwith this method.", "type": "object", "properties": {"commands": {"title": "Commands", "description": "A list of commands to execute sequentially.", "type": "array", "items": {"type": "string"}}, "stream_output": {"title": "Stream Output", "description": "Whether to stream output.", "default": true, "type": "boolean"}, "env": {"title": "Environment Variables", "description": "Environment variables to use for the subprocess.", "type": "object", "additionalProperties": {"type": "string"}}, "working_dir": {"title": "Working Directory", "description": "The absolute path to the working directory the command will be executed within.", "format": "directory-path", "type": "string"}, "shell": {"title": "Shell", "description": "The shell to run the command with; if unset, defaults to `powershell` on Windows and `bash` on other platforms.", "type": "string"}, "extension": {"title": "Extension", "description": "The extension to use for the temporary file; if unset, defaults to `.ps1` on Windows and `.sh` on other platforms.", "type": "string"}}, "required": ["commands"], "block_type_slug": "shell-operation", "secret_fields": []}','07f392e0-21aa-49ec-96f6-0273dc4f9086','sha256:9525e2fd40af302916ff7a4c33ec9c0e20d8970b09243ca010d729fac144811d','[]','0.2.2');
INSERT INTO "block_schema" VALUES('d15e7073-75c5-43df-a1e9-10bf7eb30089','2026-12-06 04:42:15.763992','2026-12-06 04:42:15.764054','{"title": "SlackCredentials", "description": "Block holding Slack credentials for use in tasks and flows.", "type": "object", "properties": {"token": {"title": "Token", "description": "Bot user OAuth token for the Slack app used to perform actions.", "type": "string", "writeOnly": true, "format": "password"}}, "required": ["token"], "block_type_slug": "slack-credentials", "secret_fields": ["token"]}','c2996ada-b821-4db3-a0cb-332f4a39dd17','sha256:f79058d8fcf22ed575f824b27daa68a52fedaa0e40f7a8a542d4ac9cf3ee8317','[]','0.2.2');
INSERT INTO "block_schema" VALUES('08995919-c970-48b1-8143-86e909bd92f0','2026-12-06 04:42:15.778812','2026-12-06 04:42:15.778874','{"title": "SnowflakeConnector", "description": "Perform data operations against a Snowflake database.", "type": "object", "properties": {"credentials": {"title": "Credentials", "description": "The credentials to authenticate with Snowflake.", "allOf": [{"$ref": "#/definitions/SnowflakeCredentials"}]}, "database": {"title": "Database", "description": "The name of the default database to use.", "type": "string"}, "warehouse": {"title": "Warehouse", "description": "The name of the default warehouse to use.", "type": "string"}, "schema": {"title": "Schema", "description": "The name of the default schema to use.", "type": "string"}, "fetch_size": {"title": "Fetch Size", "description": "The default number of rows to fetch at a time.", "default": 1, "type": "integer"}, "poll_frequency_s": {"title": "Poll Frequency [seconds]", "description": "The number of seconds between checking query status for long running queries.", "default": 1, "type": "integer"}}, "required": ["credentials", "database", "warehouse", "schema"], "block_type_slug": "snowflake-connector", "secret_fields": ["credentials.password", "credentials.private_key", "credentials.private_key_passphrase", "credentials.token"]}','f4272130-548e-481c-8705-c7de29a2d1f7','sha256:dd0d36d69bbe0d44870fd754f3c00754e37e3f52209590083eaee4c585ce0bd0','[]','0.27.3');
INSERT INTO "block_schema" VALUES('7feafc6e-8fa8-4bb9-bfe8-9f12c69293b9','2026-12-06 04:42:15.806430','2026-12-06 04:42:15.806492','{"title": "SnowflakeCredentials", "description": "Block used to manage authentication with Snowflake.", "type": "object", "properties": {"account": {"title": "Account", "description": "The snowflake account name.", "example": "nh12345.us-east-2.aws", "type": "string"}, "user": {"title": "User", "description": "The user name used to authenticate.", "type": "string"}, "password": {"title": "Password", "description": "The password used to authenticate.", "type": "string", "writeOnly": true, "format": "password"}, "private_key": {"title": "Private Key", "description": "The PEM used to authenticate.", "type": "string", "writeOnly": true, "format": "password"}, "private_key_path": {"title": "Private Key Path", "description": "The path to the private key.", "type": "string", "format": "path"}, "private_key_passphrase": {"title": "Private Key Passphrase", "description": "The password to use for the private key.", "type": "string", "writeOnly": true, "format": "password"}, "authenticator": {"title": "Authenticator", "description": "The type of authenticator to use for initializing connection.", "default": "snowflake", "enum": ["snowflake", "snowflake_jwt", "externalbrowser", "okta_endpoint", "oauth", "username_password_mfa"], "type": "string"}, "token": {"title": "Token", "description": "The OAuth or JWT Token to provide when authenticator is set to `oauth`.", "type": "string", "writeOnly": true, "format": "password"}, "endpoint": {"title": "Endpoint", "description": "The Okta endpoint to use when authenticator is set to `okta_endpoint`.", "type": "string"}, "role": {"title": "Role", "description": "The name of the default role to use.", "type": "string"}, "autocommit": {"title": "Autocommit", "description": "Whether to automatically commit.", "type": "boolean"}}, "required": ["account", "user"], "block_type_slug": "snowflake-credentials", "secret_fields": ["password", "private_key", "private_key_passphrase", "token"]}','64192f0c-d717-4a64-8fc8-c98675d9836e','sha256:b24edfb413527c951cb2a8b4b4c16aec096523f871d941889e29ac2e6e92e036','[]','0.27.3');
INSERT INTO "block_schema" VALUES('c828cd6c-8332-43ce-acdf-0e44bff8b085','2026-12-06 04:42:15.820745','2026-12-06 04:42:15.820806','{"title": "DatabaseCredentials", "description": "Block used to manage authentication with a database.", "type": "object", "properties": {"driver": {"title": "Driver", "description": "The driver name to use.", "anyOf": [{"$ref": "#/definitions/AsyncDriver"}, {"$ref": "#/definitions/SyncDriver"}, {"type": "string"}]}, "username": {"title": "Username", "description": "The user name used to authenticate.", "type": "string"}, "password": {"title": "Password", "description": "The password used to authenticate.", "type": "string", "writeOnly": true, "format": "password"}, "database": {"title": "Database", "description": "The name of the database to use.", "type": "string"}, "host": {"title": "Host", "description": "The host address of the database.", "type": "string"}, "port": {"title": "Port", "description": "The port to connect to the database.", "type": "string"}, "query": {"title": "Query", "description": "A dictionary of string keys to string values to be passed to the dialect and/or the DBAPI upon connect. To specify non-string parameters to a Python DBAPI directly, use connect_args.", "type": "object", "additionalProperties": {"type": "string"}}, "url": {"title": "Url", "description": "Manually create and provide a URL to create the engine, this is useful for external dialects, e.g. Snowflake, because some of the params, such as ''warehouse'', is not directly supported in the vanilla `sqlalchemy.engine.URL.create` method; do not provide this alongside with other URL params as it will raise a `ValueError`.", "minLength": 1, "maxLength": 65536, "format": "uri", "type": "string"}, "connect_args": {"title": "Connect Args", "description": "The options which will be passed directly to the DBAPI''s connect() method as additional keyword arguments.", "type": "object"}}, "block_type_slug": "database-credentials", "secret_fields": ["password"], "definitions": {"AsyncDriver": {"title": "AsyncDriver", "description": "Known dialects with their corresponding async drivers.\n\nAttributes:\n    POSTGRESQL_ASYNCPG (Enum): [postgresql+asyncpg](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.asyncpg)\n\n    SQLITE_AIOSQLITE (Enum): [sqlite+aiosqlite](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.aiosqlite)\n\n    MYSQL_ASYNCMY (Enum): [mysql+asyncmy](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.asyncmy)\n    MYSQL_AIOMYSQL (Enum): [mysql+aiomysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.aiomysql)", "enum": ["postgresql+asyncpg", "sqlite+aiosqlite", "mysql+asyncmy", "mysql+aiomysql"]}, "SyncDriver": {"title": "SyncDriver", "description": "Known dialects with their corresponding sync drivers.\n\nAttributes:\n    POSTGRESQL_PSYCOPG2 (Enum): [postgresql+psycopg2](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.psycopg2)\n    POSTGRESQL_PG8000 (Enum): [postgresql+pg8000](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pg8000)\n    POSTGRESQL_PSYCOPG2CFFI (Enum): [postgresql+psycopg2cffi](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.psycopg2cffi)\n    POSTGRESQL_PYPOSTGRESQL (Enum): [postgresql+pypostgresql](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pypostgresql)\n    POSTGRESQL_PYGRESQL (Enum): [postgresql+pygresql](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pygresql)\n\n    MYSQL_MYSQLDB (Enum): [mysql+mysqldb](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.mysqldb)\n    MYSQL_PYMYSQL (Enum): [mysql+pymysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.pymysql)\n    MYSQL_MYSQLCONNECTOR (Enum): [mysql+mysqlconnector](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.mysqlconnector)\n    MYSQL_CYMYSQL (Enum): [mysql+cymysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.cymysql)\n    MYSQL_OURSQL (Enum): [mysql+oursql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.oursql)\n    MYSQL_PYODBC (Enum): [mysql+pyodbc](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.pyodbc)\n\n    SQLITE_PYSQLITE (Enum): [sqlite+pysqlite](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.pysqlite)\n    SQLITE_PYSQLCIPHER (Enum): [sqlite+pysqlcipher](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.pysqlcipher)\n\n    ORACLE_CX_ORACLE (Enum): [oracle+cx_oracle](https://docs.sqlalchemy.org/en/14/dialects/oracle.html#module-sqlalchemy.dialects.oracle.cx_oracle)\n\n    MSSQL_PYODBC (Enum): [mssql+pyodbc](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.pyodbc)\n    MSSQL_MXODBC (Enum): [mssql+mxodbc](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.mxodbc)\n    MSSQL_PYMSSQL (Enum): [mssql+pymssql](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.pymssql)", "enum": ["postgresql+psycopg2", "postgresql+pg8000", "postgresql+psycopg2cffi", "postgresql+pypostgresql", "postgresql+pygresql", "mysql+mysqldb", "mysql+pymysql", "mysql+mysqlconnector", "mysql+cymysql", "mysql+oursql", "mysql+pyodbc", "sqlite+pysqlite", "sqlite+pysqlcipher", "oracle+cx_oracle", "mssql+pyodbc", "mssql+mxodbc", "mssql+pymssql"]}}}','73d43af2-1d5a-4e7a-8940-3c2d537663be','sha256:76d1ccbf0ab2038fea77e9689b91a7c8b6398e080e95d9303f65a93a4c03162e','[]','0.4.0');
INSERT INTO "block_schema" VALUES('00759cea-6f88-4e37-b2cc-9aab7cc4dbf7','2026-12-06 04:42:15.837303','2026-12-06 04:42:15.837364','{"title": "SqlAlchemyConnector", "description": "Block used to manage authentication with a database.\n\nUpon instantiating, an engine is created and maintained for the life of\nthe object until the close method is called.\n\nIt is recommended to use this block as a context manager, which will automatically\nclose the engine and its connections when the context is exited.\n\nIt is also recommended that this block is loaded and consumed within a single task\nor flow because if the block is passed across separate tasks and flows,\nthe state of the block''s connection and cursor could be lost.", "type": "object", "properties": {"connection_info": {"title": "Connection Info", "description": "SQLAlchemy URL to create the engine; either create from components or create from a string.", "anyOf": [{"$ref": "#/definitions/ConnectionComponents"}, {"type": "string", "minLength": 1, "maxLength": 65536, "format": "uri"}]}, "connect_args": {"title": "Additional Connection Arguments", "description": "The options which will be passed directly to the DBAPI''s connect() method as additional keyword arguments.", "type": "object"}, "fetch_size": {"title": "Fetch Size", "description": "The number of rows to fetch at a time.", "default": 1, "type": "integer"}}, "required": ["connection_info"], "block_type_slug": "sqlalchemy-connector", "secret_fields": ["connection_info.password"], "definitions": {"ConnectionComponents": {"title": "ConnectionComponents", "description": "Parameters to use to create a SQLAlchemy engine URL.\n\nAttributes:\n    driver: The driver name to use.\n    database: The name of the database to use.\n    username: The user name used to authenticate.\n    password: The password used to authenticate.\n    host: The host address of the database.\n    port: The port to connect to the database.\n    query: A dictionary of string keys to string values to be passed to the dialect\n        and/or the DBAPI upon connect.", "type": "object", "properties": {"driver": {"title": "Driver", "description": "The driver name to use.", "anyOf": [{"$ref": "#/definitions/AsyncDriver"}, {"$ref": "#/definitions/SyncDriver"}, {"type": "string"}]}, "database": {"title": "Database", "description": "The name of the database to use.", "type": "string"}, "username": {"title": "Username", "description": "The user name used to authenticate.", "type": "string"}, "password": {"title": "Password", "description": "The password used to authenticate.", "type": "string", "writeOnly": true, "format": "password"}, "host": {"title": "Host", "description": "The host address of the database.", "type": "string"}, "port": {"title": "Port", "description": "The port to connect to the database.", "type": "string"}, "query": {"title": "Query", "description": "A dictionary of string keys to string values to be passed to the dialect and/or the DBAPI upon connect. To specify non-string parameters to a Python DBAPI directly, use connect_args.", "type": "object", "additionalProperties": {"type": "string"}}}, "required": ["driver", "database"]}, "AsyncDriver": {"title": "AsyncDriver", "description": "Known dialects with their corresponding async drivers.\n\nAttributes:\n    POSTGRESQL_ASYNCPG (Enum): [postgresql+asyncpg](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.asyncpg)\n\n    SQLITE_AIOSQLITE (Enum): [sqlite+aiosqlite](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.aiosqlite)\n\n    MYSQL_ASYNCMY (Enum): [mysql+asyncmy](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.asyncmy)\n    MYSQL_AIOMYSQL (Enum): [mysql+aiomysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.aiomysql)", "enum": ["postgresql+asyncpg", "sqlite+aiosqlite", "mysql+asyncmy", "mysql+aiomysql"]}, "SyncDriver": {"title": "SyncDriver", "description": "Known dialects with their corresponding sync drivers.\n\nAttributes:\n    POSTGRESQL_PSYCOPG2 (Enum): [postgresql+psycopg2](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.psycopg2)\n    POSTGRESQL_PG8000 (Enum): [postgresql+pg8000](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pg8000)\n    POSTGRESQL_PSYCOPG2CFFI (Enum): [postgresql+psycopg2cffi](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.psycopg2cffi)\n    POSTGRESQL_PYPOSTGRESQL (Enum): [postgresql+pypostgresql](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pypostgresql)\n    POSTGRESQL_PYGRESQL (Enum): [postgresql+pygresql](https://docs.sqlalchemy.org/en/14/dialects/postgresql.html#module-sqlalchemy.dialects.postgresql.pygresql)\n\n    MYSQL_MYSQLDB (Enum): [mysql+mysqldb](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.mysqldb)\n    MYSQL_PYMYSQL (Enum): [mysql+pymysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.pymysql)\n    MYSQL_MYSQLCONNECTOR (Enum): [mysql+mysqlconnector](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.mysqlconnector)\n    MYSQL_CYMYSQL (Enum): [mysql+cymysql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.cymysql)\n    MYSQL_OURSQL (Enum): [mysql+oursql](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.oursql)\n    MYSQL_PYODBC (Enum): [mysql+pyodbc](https://docs.sqlalchemy.org/en/14/dialects/mysql.html#module-sqlalchemy.dialects.mysql.pyodbc)\n\n    SQLITE_PYSQLITE (Enum): [sqlite+pysqlite](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.pysqlite)\n    SQLITE_PYSQLCIPHER (Enum): [sqlite+pysqlcipher](https://docs.sqlalchemy.org/en/14/dialects/sqlite.html#module-sqlalchemy.dialects.sqlite.pysqlcipher)\n\n    ORACLE_CX_ORACLE (Enum): [oracle+cx_oracle](https://docs.sqlalchemy.org/en/14/dialects/oracle.html#module-sqlalchemy.dialects.oracle.cx_oracle)\n\n    MSSQL_PYODBC (Enum): [mssql+pyodbc](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.pyodbc)\n    MSSQL_MXODBC (Enum): [mssql+mxodbc](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.mxodbc)\n    MSSQL_PYMSSQL (Enum): [mssql+pymssql](https://docs.sqlalchemy.org/en/14/dialects/mssql.html#module-sqlalchemy.dialects.mssql.pymssql)", "enum": ["postgresql+psycopg2", "postgresql+pg8000", "postgresql+psycopg2cffi", "postgresql+pypostgresql", "postgresql+pygresql", "mysql+mysqldb", "mysql+pymysql", "mysql+mysqlconnector", "mysql+cymysql", "mysql+oursql", "mysql+pyodbc", "sqlite+pysqlite", "sqlite+pysqlcipher", "oracle+cx_oracle", "mssql+pyodbc", "mssql+mxodbc", "mssql+pymssql"]}}}','b77fe1fa-f60a-4037-94ff-4a28fd5f9ca0','sha256:01e6c0bdaac125860811b201f5a5e98ffefd5f8a49f1398b6996aec362643acc','[]','0.4.0');
CREATE TABLE block_schema_reference (
	id CHAR(36) DEFAULT (
    (
        lower(hex(randomblob(4))) 
        || '-' 
        || lower(hex(randomblob(2))) 
        || '-4' 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || substr('89ab',abs(random()) % 4 + 1, 1) 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || lower(hex(randomblob(6)))
    )
    ) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	name VARCHAR NOT NULL, 
	parent_block_schema_id CHAR(36) NOT NULL, 
	reference_block_schema_id CHAR(36) NOT NULL, 
	CONSTRAINT pk_block_schema_reference PRIMARY KEY (id), 
	CONSTRAINT fk_block_schema_reference__parent_block_schema_id__block_schema FOREIGN KEY(parent_block_schema_id) REFERENCES block_schema (id) ON DELETE cascade, 
	CONSTRAINT fk_block_schema_reference__reference_block_schema_id__block_schema FOREIGN KEY(reference_block_schema_id) REFERENCES block_schema (id) ON DELETE cascade
);
INSERT INTO "block_schema_reference" VALUES('0cf27f12-0712-4003-89f1-50f956089927','2026-12-06 04:42:14.859964','2026-12-06 04:42:14.860023','aws_credentials','6056b9c5-327f-46c8-82ed-94a378f124e6','1878f622-441a-4dcb-90bc-fc29fcf3718f');
INSERT INTO "block_schema_reference" VALUES('ac072e36-dec0-4fb7-809d-ca7915a58de6','2026-12-06 04:42:14.887780','2026-12-06 04:42:14.887830','aws_credentials','e1584df5-fe02-4afa-9582-f5d39dd72e87','1878f622-441a-4dcb-90bc-fc29fcf3718f');
INSERT INTO "block_schema_reference" VALUES('a1ba7ee4-f992-4098-8ae0-f0164b97f4f4','2026-12-06 04:42:14.933821','2026-12-06 04:42:14.933874','credentials','0d8d0c74-6b18-435f-8baf-545651d7da17','3da69b5c-0a14-4503-8982-06b54a79ea93');
INSERT INTO "block_schema_reference" VALUES('16dc1b1b-37e1-41d5-9435-0a113be7315a','2026-12-06 04:42:14.945001','2026-12-06 04:42:14.945061','credentials','0d8d0c74-6b18-435f-8baf-545651d7da17','1878f622-441a-4dcb-90bc-fc29fcf3718f');
INSERT INTO "block_schema_reference" VALUES('f0e177b8-754f-465a-8714-3a5a662e9b76','2026-12-06 04:42:14.976527','2026-12-06 04:42:14.976578','credentials','96dd58ce-7778-4be4-a00c-d4aa60c3ad72','7fb09c46-3c32-497b-bb10-e3029211cf98');
INSERT INTO "block_schema_reference" VALUES('a4e6dc66-4f01-4e92-ba11-b6ef0c1c86a5','2026-12-06 04:42:15.069559','2026-12-06 04:42:15.069614','bitbucket_credentials','d9cd0aa7-1870-4407-a86e-025c3aca5ad5','0c39f2cd-981e-4c30-ae53-2c49434d9919');
INSERT INTO "block_schema_reference" VALUES('6c4c5a28-814f-4c3e-ab02-dc440310af38','2026-12-06 04:42:15.114642','2026-12-06 04:42:15.114698','credentials','32f7f8a2-82e7-4f64-8646-c8f3e890d59e','70d1d052-d271-4004-8061-2caa742d05bd');
INSERT INTO "block_schema_reference" VALUES('29724d26-ae9a-4d2b-ac06-6053963ccbfd','2026-12-06 04:42:15.165840','2026-12-06 04:42:15.165901','credentials','e7297c2f-331a-4b9f-9d7a-19106f1c1420','e4511c3e-42bb-49a5-9872-b67b5ddd8558');
INSERT INTO "block_schema_reference" VALUES('7d13326d-eff2-4ae1-befa-7f9ac02ed6b5','2026-12-06 04:42:15.192912','2026-12-06 04:42:15.192969','credentials','e7297c2f-331a-4b9f-9d7a-19106f1c1420','7c783689-0127-440a-a359-4feaadfec064');
INSERT INTO "block_schema_reference" VALUES('3b4708fa-012d-4827-abf8-f2f017bb7378','2026-12-06 04:42:15.269486','2026-12-06 04:42:15.269543','credentials','75516fca-30b5-440a-8265-14d4e1e389eb','7a6d3915-3dc6-4faf-a88b-063d6b16a6e1');
INSERT INTO "block_schema_reference" VALUES('3ec8e344-aa6d-4e1c-bd39-f5c947cfc42b','2026-12-06 04:42:15.272862','2026-12-06 04:42:15.272912','connector','ee6d7a46-14b6-492f-b713-61dfa541958d','75516fca-30b5-440a-8265-14d4e1e389eb');
INSERT INTO "block_schema_reference" VALUES('ef8d3b48-f2d9-46ef-8a5b-b9527c799cf7','2026-12-06 04:42:15.276580','2026-12-06 04:42:15.276626','target_configs','2726bb5a-6cd7-436c-94cd-160b83ff3f54','ee6d7a46-14b6-492f-b713-61dfa541958d');
INSERT INTO "block_schema_reference" VALUES('d2d0a551-2144-4b96-b1cd-004ca78d5a1e','2026-12-06 04:42:15.288002','2026-12-06 04:42:15.288058','target_configs','2726bb5a-6cd7-436c-94cd-160b83ff3f54','32f7f8a2-82e7-4f64-8646-c8f3e890d59e');
INSERT INTO "block_schema_reference" VALUES('7e4ad46b-ca96-4904-9896-92799abce52d','2026-12-06 04:42:15.299979','2026-12-06 04:42:15.300040','target_configs','2726bb5a-6cd7-436c-94cd-160b83ff3f54','e7297c2f-331a-4b9f-9d7a-19106f1c1420');
INSERT INTO "block_schema_reference" VALUES('bf164210-9b8f-47c3-b2f5-8bf96a9791e0','2026-12-06 04:42:15.321034','2026-12-06 04:42:15.321091','target_configs','2726bb5a-6cd7-436c-94cd-160b83ff3f54','c18a1ca6-7bcb-4ac0-9de8-ba9c404f089b');
INSERT INTO "block_schema_reference" VALUES('2f5d5174-66b3-4600-b419-f2eb59683912','2026-12-06 04:42:15.331716','2026-12-06 04:42:15.331768','global_configs','2726bb5a-6cd7-436c-94cd-160b83ff3f54','8618381f-0909-4c52-9a2c-08347c4624cd');
INSERT INTO "block_schema_reference" VALUES('1b4b5081-d603-4701-bfb9-90739fd47268','2026-12-06 04:42:15.375346','2026-12-06 04:42:15.375399','credentials','fac91b1d-efa8-45e6-98cf-1ac582d0155c','b77f6b86-3e89-4d2b-a8a4-f4144a37506a');
INSERT INTO "block_schema_reference" VALUES('83f629f2-020a-4893-85be-82d4e1a54a5e','2026-12-06 04:42:15.379115','2026-12-06 04:42:15.379168','connector','7be7b94d-7704-40d7-8f39-4f2d1a407c77','fac91b1d-efa8-45e6-98cf-1ac582d0155c');
INSERT INTO "block_schema_reference" VALUES('bd953b35-b913-4035-8647-059fd6a515be','2026-12-06 04:42:15.438679','2026-12-06 04:42:15.438744','dbt_cli_profile','8ac19578-bb4f-4bb3-901c-a8c04ac3eef5','2726bb5a-6cd7-436c-94cd-160b83ff3f54');
INSERT INTO "block_schema_reference" VALUES('0d64a76e-4fe9-44a0-89a7-8562e2200c61','2026-12-06 04:42:15.524700','2026-12-06 04:42:15.524774','gcp_credentials','61ff9a00-a46a-4e2d-b223-3240992221d9','70d1d052-d271-4004-8061-2caa742d05bd');
INSERT INTO "block_schema_reference" VALUES('13346112-bf01-40ac-9ddf-b423b7372b5b','2026-12-06 04:42:15.589128','2026-12-06 04:42:15.589187','gcp_credentials','c2321f6a-0f2c-4f67-b7cd-c36d34e590d1','143d2ead-62c3-4448-953b-1d877d6edd68');
INSERT INTO "block_schema_reference" VALUES('5eb0b748-2ec5-4c17-b39c-f44d99945690','2026-12-06 04:42:15.618897','2026-12-06 04:42:15.618959','gcp_credentials','a174227b-60b3-4656-aef1-831c7f9f69bf','143d2ead-62c3-4448-953b-1d877d6edd68');
INSERT INTO "block_schema_reference" VALUES('01d05031-032b-4b55-b0b2-0788c08b9ce6','2026-12-06 04:42:15.664958','2026-12-06 04:42:15.665016','credentials','69c7ccac-2d0e-4278-9a13-0cfb9f467b39','a2443a71-3bc1-4b38-b0c5-773c29245649');
INSERT INTO "block_schema_reference" VALUES('71698b09-7fd4-47c8-88b1-0dc343c29569','2026-12-06 04:42:15.699686','2026-12-06 04:42:15.699739','credentials','2f884cec-08ec-421a-a1c6-7c46356fff7d','33e9aacf-9e2a-4e04-b546-4fb56ef8aee1');
INSERT INTO "block_schema_reference" VALUES('b1088585-6a4f-4c20-8a2b-ccee55707bb3','2026-12-06 04:42:15.734958','2026-12-06 04:42:15.735020','cluster_config','67b218b9-b5e4-4afc-8c40-9414214fb3a6','6f3c61fa-3e83-48fc-89a4-f710e939e28f');
INSERT INTO "block_schema_reference" VALUES('c8a127e5-104d-43cc-bfbd-22337d778dc5','2026-12-06 04:42:15.794253','2026-12-06 04:42:15.794310','credentials','08995919-c970-48b1-8143-86e909bd92f0','b77f6b86-3e89-4d2b-a8a4-f4144a37506a');
CREATE TABLE "block_type" (
	id CHAR(36) DEFAULT ((
        lower(hex(randomblob(4))) 
        || '-' 
        || lower(hex(randomblob(2))) 
        || '-4' 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || substr('89ab',abs(random()) % 4 + 1, 1) 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || lower(hex(randomblob(6)))
    )) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	name VARCHAR NOT NULL, 
	logo_url VARCHAR, 
	documentation_url VARCHAR, 
	description VARCHAR, 
	code_example VARCHAR, 
	is_protected BOOLEAN DEFAULT '0' NOT NULL, 
	slug VARCHAR NOT NULL, 
	CONSTRAINT pk_block_type PRIMARY KEY (id)
);
INSERT INTO "block_type" VALUES('eb900621-f64d-4044-a3e7-554ab56458a3','2026-12-06 04:42:14.202367','2026-12-06 04:42:14.544000','Webhook','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/webhook.png','https://www.prefect.io/docs/latest/automate/events/webhook-triggers','Block that enables calling webhooks.','```python
from prefect.blocks.webhook import Webhook

webhook_block = Webhook.load("BLOCK_NAME")
```',1,'webhook');
INSERT INTO "block_type" VALUES('a029bb58-5a65-4e0a-986c-89956648ce20','2026-12-06 04:42:14.272320','2026-12-06 04:42:14.523000','Secret','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/secret.png','https://www.prefect.io/docs/latest/develop/blocks','A block that represents a secret value. The value stored in this block will be obfuscated when this block is viewed or edited in the UI.','```python
from prefect.blocks.system import Secret

Secret(value="sk-1234567890").save("BLOCK_NAME", overwrite=True)

secret_block = Secret.load("BLOCK_NAME")

# Access the stored secret
secret_block.get()
```',1,'secret');
INSERT INTO "block_type" VALUES('ba45ef1c-36ab-400c-8efc-639a403a118f','2026-12-06 04:42:14.291624','2026-12-06 04:42:14.562000','Local File System','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/filesystem.png','https://www.prefect.io/docs/latest/develop/results#specifying-a-default-filesystem','Store data as a file on a local file system.','Load stored local file system config:
```python
from prefect.filesystems import LocalFileSystem

local_file_system_block = LocalFileSystem.load("BLOCK_NAME")
```',1,'local-file-system');
INSERT INTO "block_type" VALUES('c4c7f3a7-aab0-4771-ab16-8860cab4826b','2026-12-06 04:42:14.312084','2026-12-06 04:42:14.312127','Slack Webhook','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/slack.png','https://www.prefect.io/docs/latest/automate/events/automations-triggers#sending-notifications-with-automations','Enables sending notifications via a provided Slack webhook.

Supports both standard Slack webhooks (hooks.slack.com) and Slack GovCloud
webhooks (hooks.slack-gov.com).','Load a saved Slack webhook and send a message:
```python
from prefect.blocks.notifications import SlackWebhook

slack_webhook_block = SlackWebhook.load("BLOCK_NAME")
slack_webhook_block.notify("Hello from Prefect!")
```',0,'slack-webhook');
INSERT INTO "block_type" VALUES('66d8bf8b-1eac-4239-97ab-0f3d6f264b6c','2026-12-06 04:42:14.337871','2026-12-06 04:42:14.337914','Microsoft Teams Webhook','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/microsoft-teams.png','https://www.prefect.io/docs/latest/automate/events/automations-triggers#sending-notifications-with-automations','Enables sending notifications via a provided Microsoft Teams webhook.','Load a saved Teams webhook and send a message:
```python
from prefect.blocks.notifications import MicrosoftTeamsWebhook
teams_webhook_block = MicrosoftTeamsWebhook.load("BLOCK_NAME")
teams_webhook_block.notify("Hello from Prefect!")
```',0,'ms-teams-webhook');
INSERT INTO "block_type" VALUES('4c88e8df-b006-4556-b740-aa960c7da711','2026-12-06 04:42:14.358208','2026-12-06 04:42:14.358230','Pager Duty Webhook','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/pagerduty.png','https://www.prefect.io/docs/latest/automate/events/automations-triggers#sending-notifications-with-automations','Enables sending notifications via a provided PagerDuty webhook.','Load a saved PagerDuty webhook and send a message:
```python
from prefect.blocks.notifications import PagerDutyWebHook
pagerduty_webhook_block = PagerDutyWebHook.load("BLOCK_NAME")
pagerduty_webhook_block.notify("Hello from Prefect!")
```',0,'pager-duty-webhook');
INSERT INTO "block_type" VALUES('341e38e8-c91f-4f0c-8636-83419b23be70','2026-12-06 04:42:14.378986','2026-12-06 04:42:14.379024','Twilio SMS','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/twilio.png','https://www.prefect.io/docs/latest/automate/events/automations-triggers#sending-notifications-with-automations','Enables sending notifications via Twilio SMS.','Load a saved `TwilioSMS` block and send a message:
```python
from prefect.blocks.notifications import TwilioSMS
twilio_webhook_block = TwilioSMS.load("BLOCK_NAME")
twilio_webhook_block.notify("Hello from Prefect!")
```',0,'twilio-sms');
INSERT INTO "block_type" VALUES('e139fe62-e27a-4e27-985d-adca95c0cb89','2026-12-06 04:42:14.402882','2026-12-06 04:42:14.402926','Opsgenie Webhook','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/opsgenie.png','https://www.prefect.io/docs/latest/automate/events/automations-triggers#sending-notifications-with-automations','Enables sending notifications via a provided Opsgenie webhook.','Load a saved Opsgenie webhook and send a message:
```python
from prefect.blocks.notifications import OpsgenieWebhook
opsgenie_webhook_block = OpsgenieWebhook.load("BLOCK_NAME")
opsgenie_webhook_block.notify("Hello from Prefect!")
```',0,'opsgenie-webhook');
INSERT INTO "block_type" VALUES('9c33c0bb-3638-4127-a56a-1aa9a3e7093c','2026-12-06 04:42:14.431538','2026-12-06 04:42:14.431567','Mattermost Webhook','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/mattermost.png','https://www.prefect.io/docs/latest/automate/events/automations-triggers#sending-notifications-with-automations','Enables sending notifications via a provided Mattermost webhook.','Load a saved Mattermost webhook and send a message:
```python
from prefect.blocks.notifications import MattermostWebhook

mattermost_webhook_block = MattermostWebhook.load("BLOCK_NAME")

mattermost_webhook_block.notify("Hello from Prefect!")
```',0,'mattermost-webhook');
INSERT INTO "block_type" VALUES('e137a6b9-56c2-44bf-85e8-717395025275','2026-12-06 04:42:14.451352','2026-12-06 04:42:14.451385','Discord Webhook','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/discord.png','https://www.prefect.io/docs/latest/automate/events/automations-triggers#sending-notifications-with-automations','Enables sending notifications via a provided Discord webhook.','Load a saved Discord webhook and send a message:
```python
from prefect.blocks.notifications import DiscordWebhook

discord_webhook_block = DiscordWebhook.load("BLOCK_NAME")

discord_webhook_block.notify("Hello from Prefect!")
```',0,'discord-webhook');
INSERT INTO "block_type" VALUES('5d039e7b-dd71-4fae-b645-c2a8664cce57','2026-12-06 04:42:14.471041','2026-12-06 04:42:14.471115','Custom Webhook','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/webhook.png','https://www.prefect.io/docs/latest/automate/events/automations-triggers#sending-notifications-with-automations','Enables sending notifications via any custom webhook.

All nested string param contains `{{key}}` will be substituted with value from context/secrets.

Context values include: `subject`, `body` and `name`.','Load a saved custom webhook and send a message:
```python
from prefect.blocks.notifications import CustomWebhookNotificationBlock

custom_webhook_block = CustomWebhookNotificationBlock.load("BLOCK_NAME")

custom_webhook_block.notify("Hello from Prefect!")
```',0,'custom-webhook');
INSERT INTO "block_type" VALUES('bb05fddb-f7f0-4b1c-9ef8-25ca1df71104','2026-12-06 04:42:14.496817','2026-12-06 04:42:14.496856','Sendgrid Email','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/email.png','https://www.prefect.io/docs/latest/automate/events/automations-triggers#sending-notifications-with-automations','Enables sending notifications via Sendgrid email service.','Load a saved Sendgrid and send a email message:
```python
from prefect.blocks.notifications import SendgridEmail

sendgrid_block = SendgridEmail.load("BLOCK_NAME")

sendgrid_block.notify("Hello from Prefect!")
```',0,'sendgrid-email');
INSERT INTO "block_type" VALUES('39061973-16e3-4b54-8f96-3af47ac0e394','2026-12-06 04:42:14.579765','2026-12-06 04:42:14.579801','Remote File System','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/filesystem.png','https://www.prefect.io/docs/latest/develop/results#specifying-a-default-filesystem','Store data as a file on a remote file system.

Supports any remote file system supported by `fsspec`. The file system is specified
using a protocol. For example, "s3://my-bucket/my-folder/" will use S3.','Load stored remote file system config:
```python
from prefect.filesystems import RemoteFileSystem

remote_file_system_block = RemoteFileSystem.load("BLOCK_NAME")
```',0,'remote-file-system');
INSERT INTO "block_type" VALUES('d5fc55be-e2f4-4b17-bc74-ffa7b80a5174','2026-12-06 04:42:14.600915','2026-12-06 04:42:14.600954','SMB','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/smb.png','https://www.prefect.io/docs/latest/develop/results#specifying-a-default-filesystem','Store data as a file on a SMB share.','Load stored SMB config:

```python
from prefect.filesystems import SMB
smb_block = SMB.load("BLOCK_NAME")
```',0,'smb');
INSERT INTO "block_type" VALUES('7b2c5460-693a-4093-afd2-ca151939b685','2026-12-06 04:42:14.624899','2026-12-06 04:42:14.624944','AWS Credentials','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/aws.png','https://prefecthq.github.io/prefect-aws/credentials/#prefect_aws.credentials.AwsCredentials','Block used to manage authentication with AWS. AWS authentication is
handled via the `boto3` module. Refer to the
[boto3 docs](https://boto3.amazonaws.com/v1/documentation/api/latest/guide/credentials.html)
for more info about the possible credential configurations. This block is part of the prefect-aws collection. Install prefect-aws with `pip install prefect-aws` to use this block.','Load stored AWS credentials:
```python
from prefect_aws import AwsCredentials

aws_credentials_block = AwsCredentials.load("BLOCK_NAME")
```',0,'aws-credentials');
INSERT INTO "block_type" VALUES('fd8d0dd3-7265-48a5-a144-c1b2a9d3dbe2','2026-12-06 04:42:14.630237','2026-12-06 04:42:14.630267','AWS Secret','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/aws.png','https://prefecthq.github.io/prefect-aws/secrets_manager/#prefect_aws.secrets_manager.AwsSecret','Manages a secret in AWS''s Secrets Manager. This block is part of the prefect-aws collection. Install prefect-aws with `pip install prefect-aws` to use this block.','```python
from prefect_aws.secrets_manager import AwsSecret

aws_secret_block = AwsSecret.load("BLOCK_NAME")
```',0,'aws-secret');
INSERT INTO "block_type" VALUES('b18bfa67-0a0b-4d8c-a9e1-e40b0eccd2f6','2026-12-06 04:42:14.638584','2026-12-06 04:42:14.638629','Lambda Function','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/aws.png','https://prefecthq.github.io/prefect-aws/s3/#prefect_aws.lambda_function.LambdaFunction','Invoke a Lambda function. This block is part of the prefect-aws
collection. Install prefect-aws with `pip install prefect-aws` to use this
block. This block is part of the prefect-aws collection. Install prefect-aws with `pip install prefect-aws` to use this block.','```python
from prefect_aws.lambda_function import LambdaFunction

lambda_function_block = LambdaFunction.load("BLOCK_NAME")
```',0,'lambda-function');
INSERT INTO "block_type" VALUES('0dba0cbc-258a-407b-a8b4-498146680a58','2026-12-06 04:42:14.645246','2026-12-06 04:42:14.645288','MinIO Credentials','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/minio.png','https://prefecthq.github.io/prefect-aws/credentials/#prefect_aws.credentials.MinIOCredentials','Block used to manage authentication with MinIO. Refer to the MinIO docs: https://docs.min.io/docs/minio-server-configuration-guide.html for more info about the possible credential configurations. This block is part of the prefect-aws collection. Install prefect-aws with `pip install prefect-aws` to use this block.','Load stored MinIO credentials:
```python
from prefect_aws import MinIOCredentials

minio_credentials_block = MinIOCredentials.load("BLOCK_NAME")
```',0,'minio-credentials');
INSERT INTO "block_type" VALUES('a9fc92ed-3fd8-4f21-a188-5c0903f25628','2026-12-06 04:42:14.650413','2026-12-06 04:42:14.650448','S3 Bucket','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/aws.png','https://prefecthq.github.io/prefect-aws/s3/#prefect_aws.s3.S3Bucket','Block used to store data using AWS S3 or S3-compatible object storage like MinIO. This block is part of the prefect-aws collection. Install prefect-aws with `pip install prefect-aws` to use this block.','```python
from prefect_aws.s3 import S3Bucket

s3_bucket_block = S3Bucket.load("BLOCK_NAME")
```',0,'s3-bucket');
INSERT INTO "block_type" VALUES('a8d027f4-99aa-4b5e-bc8b-447960b1b6d1','2026-12-06 04:42:14.655882','2026-12-06 04:42:14.655912','Azure Blob Storage Container','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/microsoft-azure.png','https://prefecthq.github.io/prefect-azure/blob_storage/#prefect_azure.blob_storabe.AzureBlobStorageContainer','Represents a container in Azure Blob Storage.

This class provides methods for downloading and uploading files and folders
to and from the Azure Blob Storage container. This block is part of the prefect-azure collection. Install prefect-azure with `pip install prefect-azure` to use this block.','```python
from prefect_azure.blob_storage import AzureBlobStorageContainer

azure_blob_storage_container_block = AzureBlobStorageContainer.load("BLOCK_NAME")
```',0,'azure-blob-storage-container');
INSERT INTO "block_type" VALUES('b25016c2-d99d-4c49-b680-054efd51c088','2026-12-06 04:42:14.660608','2026-12-06 04:42:14.660642','Azure Blob Storage Credentials','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/microsoft-azure.png','https://prefecthq.github.io/prefect-azure/credentials/#prefect_azure.credentials.AzureBlobStorageCredentials','Stores credentials for authenticating with Azure Blob Storage. This block is part of the prefect-azure collection. Install prefect-azure with `pip install prefect-azure` to use this block.','Load stored Azure Blob Storage credentials and retrieve a blob service client:
```python
from prefect_azure import AzureBlobStorageCredentials

azure_credentials_block = AzureBlobStorageCredentials.load("BLOCK_NAME")

blob_service_client = azure_credentials_block.get_blob_client()
```',0,'azure-blob-storage-credentials');
INSERT INTO "block_type" VALUES('2fa20212-3bb5-4eca-b69c-e447247a10fb','2026-12-06 04:42:14.664129','2026-12-06 04:42:14.664151','Azure Container Instance Credentials','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/microsoft-azure.png','https://prefecthq.github.io/prefect-azure/credentials/#prefect_azure.credentials.AzureContainerInstanceCredentials','Block used to manage Azure Container Instances authentication. Stores Azure Service
Principal authentication data. This block is part of the prefect-azure collection. Install prefect-azure with `pip install prefect-azure` to use this block.','```python
from prefect_azure.credentials import AzureContainerInstanceCredentials

azure_container_instance_credentials_block = AzureContainerInstanceCredentials.load("BLOCK_NAME")
```',0,'azure-container-instance-credentials');
INSERT INTO "block_type" VALUES('8a7f26fd-46af-4ef1-84cb-916cb88ba713','2026-12-06 04:42:14.668569','2026-12-06 04:42:14.668594','Azure Cosmos DB Credentials','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/microsoft-azure.png','https://prefecthq.github.io/prefect-azure/credentials/#prefect_azure.credentials.AzureCosmosDbCredentials','Block used to manage Cosmos DB authentication with Azure.
Azure authentication is handled via the `azure` module through
a connection string. This block is part of the prefect-azure collection. Install prefect-azure with `pip install prefect-azure` to use this block.','Load stored Azure Cosmos DB credentials:
```python
from prefect_azure import AzureCosmosDbCredentials
azure_credentials_block = AzureCosmosDbCredentials.load("BLOCK_NAME")
```',0,'azure-cosmos-db-credentials');
INSERT INTO "block_type" VALUES('d3dc52ee-016c-4cba-81bb-de7599561d07','2026-12-06 04:42:14.672503','2026-12-06 04:42:14.672529','AzureML Credentials','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/microsoft-azure.png','https://prefecthq.github.io/prefect-azure/credentials/#prefect_azure.credentials.AzureMlCredentials','Block used to manage authentication with AzureML. Azure authentication is
handled via the `azure` module. This block is part of the prefect-azure collection. Install prefect-azure with `pip install prefect-azure` to use this block.','Load stored AzureML credentials:
```python
from prefect_azure import AzureMlCredentials
azure_ml_credentials_block = AzureMlCredentials.load("BLOCK_NAME")
```',0,'azureml-credentials');
INSERT INTO "block_type" VALUES('3e18585c-b6c1-40b1-b1dd-919ef813d726','2026-12-06 04:42:14.676415','2026-12-06 04:42:14.676438','BitBucket Credentials','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/bitbucket.png',NULL,'Store BitBucket credentials to interact with private BitBucket repositories. This block is part of the prefect-bitbucket collection. Install prefect-bitbucket with `pip install prefect-bitbucket` to use this block.','Load stored BitBucket credentials:
```python
from prefect_bitbucket import BitBucketCredentials
bitbucket_credentials_block = BitBucketCredentials.load("BLOCK_NAME")
```',0,'bitbucket-credentials');
INSERT INTO "block_type" VALUES('72925cc6-6fd2-45b6-b9f3-48e0893d2321','2026-12-06 04:42:14.680338','2026-12-06 04:42:14.680364','BitBucket Repository','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/bitbucket.png',NULL,'Interact with files stored in BitBucket repositories. This block is part of the prefect-bitbucket collection. Install prefect-bitbucket with `pip install prefect-bitbucket` to use this block.','```python
from prefect_bitbucket.repository import BitBucketRepository

bitbucket_repository_block = BitBucketRepository.load("BLOCK_NAME")
```',0,'bitbucket-repository');
INSERT INTO "block_type" VALUES('540623fa-68aa-46c2-8f18-ef08d932f8a4','2026-12-06 04:42:14.685351','2026-12-06 04:42:14.685379','Databricks Credentials','https://images.ctfassets.net/gm98wzqotmnx/5GTHI1PH2dTiantfps6Fnc/1c750fab7f4c14ea1b93a62b9fea6a94/databricks_logo_icon_170295.png?h=250','https://prefecthq.github.io/prefect-databricks/credentials/#prefect_databricks.credentials.DatabricksCredentials','Block used to manage Databricks authentication. This block is part of the prefect-databricks collection. Install prefect-databricks with `pip install prefect-databricks` to use this block.','Load stored Databricks credentials:
```python
from prefect_databricks import DatabricksCredentials
databricks_credentials_block = DatabricksCredentials.load("BLOCK_NAME")
```',0,'databricks-credentials');
INSERT INTO "block_type" VALUES('64627c60-ffee-4f1d-abf1-6fcc170203c3','2026-12-06 04:42:14.690210','2026-12-06 04:42:14.690238','dbt CLI BigQuery Target Configs','https://images.ctfassets.net/gm98wzqotmnx/5zE9lxfzBHjw3tnEup4wWL/9a001902ed43a84c6c96d23b24622e19/dbt-bit_tm.png?h=250','https://prefecthq.github.io/prefect-dbt/cli/configs/bigquery/#prefect_dbt.cli.configs.bigquery.BigQueryTargetConfigs','dbt CLI target configs containing credentials and settings, specific to BigQuery. This block is part of the prefect-dbt collection. Install prefect-dbt with `pip install prefect-dbt` to use this block.','Load stored BigQueryTargetConfigs.
```python
from prefect_dbt.cli.configs import BigQueryTargetConfigs

bigquery_target_configs = BigQueryTargetConfigs.load("BLOCK_NAME")
```

Instantiate BigQueryTargetConfigs.
```python
from prefect_dbt.cli.configs import BigQueryTargetConfigs
from prefect_gcp.credentials import GcpCredentials

credentials = GcpCredentials.load("BLOCK-NAME-PLACEHOLDER")
target_configs = BigQueryTargetConfigs(
    schema="schema",  # also known as dataset
    credentials=credentials,
)
```',0,'dbt-cli-bigquery-target-configs');
INSERT INTO "block_type" VALUES('c22ab6aa-b52e-4a98-b88c-42c7e72a700f','2026-12-06 04:42:14.694581','2026-12-06 04:42:14.694602','dbt CLI Global Configs','https://images.ctfassets.net/gm98wzqotmnx/5zE9lxfzBHjw3tnEup4wWL/9a001902ed43a84c6c96d23b24622e19/dbt-bit_tm.png?h=250','https://prefecthq.github.io/prefect-dbt/cli/configs/base/#prefect_dbt.cli.configs.base.GlobalConfigs','Global configs control things like the visual output
of logs, the manner in which dbt parses your project,
and what to do when dbt finds a version mismatch
or a failing model. Docs can be found [here](
https://docs.getdbt.com/reference/global-configs). This block is part of the prefect-dbt collection. Install prefect-dbt with `pip install prefect-dbt` to use this block.','Load stored GlobalConfigs:
```python
from prefect_dbt.cli.configs import GlobalConfigs

dbt_cli_global_configs = GlobalConfigs.load("BLOCK_NAME")
```',0,'dbt-cli-global-configs');
INSERT INTO "block_type" VALUES('d3afc11b-7b97-4bc9-bcc6-804ade945455','2026-12-06 04:42:14.698066','2026-12-06 04:42:14.698087','dbt CLI Postgres Target Configs','https://images.ctfassets.net/gm98wzqotmnx/5zE9lxfzBHjw3tnEup4wWL/9a001902ed43a84c6c96d23b24622e19/dbt-bit_tm.png?h=250','https://prefecthq.github.io/prefect-dbt/cli/configs/postgres/#prefect_dbt.cli.configs.postgres.PostgresTargetConfigs','dbt CLI target configs containing credentials and settings specific to Postgres. This block is part of the prefect-dbt collection. Install prefect-dbt with `pip install prefect-dbt` to use this block.','Load stored PostgresTargetConfigs:
```python
from prefect_dbt.cli.configs import PostgresTargetConfigs

postgres_target_configs = PostgresTargetConfigs.load("BLOCK_NAME")
```

Instantiate PostgresTargetConfigs with DatabaseCredentials.
```python
from prefect_dbt.cli.configs import PostgresTargetConfigs
from prefect_sqlalchemy import DatabaseCredentials, SyncDriver

credentials = DatabaseCredentials(
    driver=SyncDriver.POSTGRESQL_PSYCOPG2,
    username="prefect",
    password="prefect_password",
    database="postgres",
    host="host",
    port=8080
)
target_configs = PostgresTargetConfigs(credentials=credentials, schema="schema")
```',0,'dbt-cli-postgres-target-configs');
INSERT INTO "block_type" VALUES('ce40a9b9-c8cb-4c2f-858f-ffba7d2888ed','2026-12-06 04:42:14.701517','2026-12-06 04:42:14.701536','dbt CLI Profile','https://images.ctfassets.net/gm98wzqotmnx/5zE9lxfzBHjw3tnEup4wWL/9a001902ed43a84c6c96d23b24622e19/dbt-bit_tm.png?h=250','https://prefecthq.github.io/prefect-dbt/cli/credentials/#prefect_dbt.cli.credentials.DbtCliProfile','Profile for use across dbt CLI tasks and flows. This block is part of the prefect-dbt collection. Install prefect-dbt with `pip install prefect-dbt` to use this block.','Load stored dbt CLI profile:
```python
from prefect_dbt.cli import DbtCliProfile
dbt_cli_profile = DbtCliProfile.load("BLOCK_NAME").get_profile()
```

Get a dbt Snowflake profile from DbtCliProfile by using SnowflakeTargetConfigs:
```python
from prefect_dbt.cli import DbtCliProfile
from prefect_dbt.cli.configs import SnowflakeTargetConfigs
from prefect_snowflake.credentials import SnowflakeCredentials
from prefect_snowflake.database import SnowflakeConnector

credentials = SnowflakeCredentials(
    user="user",
    password="password",
    account="account.region.aws",
    role="role",
)
connector = SnowflakeConnector(
    schema="public",
    database="database",
    warehouse="warehouse",
    credentials=credentials,
)
target_configs = SnowflakeTargetConfigs(
    connector=connector
)
dbt_cli_profile = DbtCliProfile(
    name="jaffle_shop",
    target="dev",
    target_configs=target_configs,
)
profile = dbt_cli_profile.get_profile()
```

Get a dbt Redshift profile from DbtCliProfile by using generic TargetConfigs:
```python
from prefect_dbt.cli import DbtCliProfile
from prefect_dbt.cli.configs import GlobalConfigs, TargetConfigs

target_configs_extras = dict(
    host="hostname.region.redshift.amazonaws.com",
    user="username",
    password="password1",
    port=5439,
    dbname="analytics",
)
target_configs = TargetConfigs(
    type="redshift",
    schema="schema",
    threads=4,
    extras=target_configs_extras
)
dbt_cli_profile = DbtCliProfile(
    name="jaffle_shop",
    target="dev",
    target_configs=target_configs,
)
profile = dbt_cli_profile.get_profile()
```',0,'dbt-cli-profile');
INSERT INTO "block_type" VALUES('7e19fd25-41e5-4535-98d0-c1ea6a523364','2026-12-06 04:42:14.704666','2026-12-06 04:42:14.704685','dbt CLI Snowflake Target Configs','https://images.ctfassets.net/gm98wzqotmnx/5zE9lxfzBHjw3tnEup4wWL/9a001902ed43a84c6c96d23b24622e19/dbt-bit_tm.png?h=250','https://prefecthq.github.io/prefect-dbt/cli/configs/snowflake/#prefect_dbt.cli.configs.snowflake.SnowflakeTargetConfigs','Target configs contain credentials and
settings, specific to Snowflake.
To find valid keys, head to the [Snowflake Profile](
https://docs.getdbt.com/reference/warehouse-profiles/snowflake-profile)
page. This block is part of the prefect-dbt collection. Install prefect-dbt with `pip install prefect-dbt` to use this block.','Load stored SnowflakeTargetConfigs:
```python
from prefect_dbt.cli.configs import SnowflakeTargetConfigs

snowflake_target_configs = SnowflakeTargetConfigs.load("BLOCK_NAME")
```

Instantiate SnowflakeTargetConfigs.
```python
from prefect_dbt.cli.configs import SnowflakeTargetConfigs
from prefect_snowflake.credentials import SnowflakeCredentials
from prefect_snowflake.database import SnowflakeConnector

credentials = SnowflakeCredentials(
    user="user",
    password="password",
    account="account.region.aws",
    role="role",
)
connector = SnowflakeConnector(
    schema="public",
    database="database",
    warehouse="warehouse",
    credentials=credentials,
)
target_configs = SnowflakeTargetConfigs(
    connector=connector,
    extras={"retry_on_database_errors": True},
)
```',0,'dbt-cli-snowflake-target-configs');
INSERT INTO "block_type" VALUES('d73a6ec5-9331-4362-a7c9-c5fd1da4ff3f','2026-12-06 04:42:14.707847','2026-12-06 04:42:14.707865','dbt CLI Target Configs','https://images.ctfassets.net/gm98wzqotmnx/5zE9lxfzBHjw3tnEup4wWL/9a001902ed43a84c6c96d23b24622e19/dbt-bit_tm.png?h=250','https://prefecthq.github.io/prefect-dbt/cli/configs/base/#prefect_dbt.cli.configs.base.TargetConfigs','Target configs contain credentials and
settings, specific to the warehouse you''re connecting to.
To find valid keys, head to the [Available adapters](
https://docs.getdbt.com/docs/available-adapters) page and
click the desired adapter''s "Profile Setup" hyperlink. This block is part of the prefect-dbt collection. Install prefect-dbt with `pip install prefect-dbt` to use this block.','Load stored TargetConfigs:
```python
from prefect_dbt.cli.configs import TargetConfigs

dbt_cli_target_configs = TargetConfigs.load("BLOCK_NAME")
```',0,'dbt-cli-target-configs');
INSERT INTO "block_type" VALUES('460adc25-6963-4662-ab2c-bbe1ec55a34a','2026-12-06 04:42:14.711247','2026-12-06 04:42:14.711275','dbt Cloud Credentials','https://images.ctfassets.net/gm98wzqotmnx/5zE9lxfzBHjw3tnEup4wWL/9a001902ed43a84c6c96d23b24622e19/dbt-bit_tm.png?h=250','https://prefecthq.github.io/prefect-dbt/cloud/credentials/#prefect_dbt.cloud.credentials.DbtCloudCredentials','Credentials block for credential use across dbt Cloud tasks and flows. This block is part of the prefect-dbt collection. Install prefect-dbt with `pip install prefect-dbt` to use this block.','Load stored dbt Cloud credentials:
```python
from prefect_dbt.cloud import DbtCloudCredentials

dbt_cloud_credentials = DbtCloudCredentials.load("BLOCK_NAME")
```

Use DbtCloudCredentials instance to trigger a job run:
```python
from prefect_dbt.cloud import DbtCloudCredentials

credentials = DbtCloudCredentials(api_key="my_api_key", account_id=123456789)

async with dbt_cloud_credentials.get_administrative_client() as client:
    client.trigger_job_run(job_id=1)
```

Load saved dbt Cloud credentials within a flow:
```python
from prefect import flow

from prefect_dbt.cloud import DbtCloudCredentials
from prefect_dbt.cloud.jobs import trigger_dbt_cloud_job_run


@flow
def trigger_dbt_cloud_job_run_flow():
    credentials = DbtCloudCredentials.load("my-dbt-credentials")
    trigger_dbt_cloud_job_run(dbt_cloud_credentials=credentials, job_id=1)

trigger_dbt_cloud_job_run_flow()
```',0,'dbt-cloud-credentials');
INSERT INTO "block_type" VALUES('f061388f-caa3-4ce0-8cd7-7afae1cd3326','2026-12-06 04:42:14.715364','2026-12-06 04:42:14.715388','dbt Core Operation','https://images.ctfassets.net/gm98wzqotmnx/5zE9lxfzBHjw3tnEup4wWL/9a001902ed43a84c6c96d23b24622e19/dbt-bit_tm.png?h=250','https://prefecthq.github.io/prefect-dbt/cli/commands/#prefect_dbt.cli.commands.DbtCoreOperation','A block representing a dbt operation, containing multiple dbt and shell commands.

For long-lasting operations, use the trigger method and utilize the block as a
context manager for automatic closure of processes when context is exited.
If not, manually call the close method to close processes.

For short-lasting operations, use the run method. Context is automatically managed
with this method. This block is part of the prefect-dbt collection. Install prefect-dbt with `pip install prefect-dbt` to use this block.','Load a configured block.
```python
from prefect_dbt import DbtCoreOperation

dbt_op = DbtCoreOperation.load("BLOCK_NAME")
```

Execute short-lasting dbt debug and list with a custom DbtCliProfile.
```python
from prefect_dbt import DbtCoreOperation, DbtCliProfile
from prefect_dbt.cli.configs import SnowflakeTargetConfigs
from prefect_snowflake import SnowflakeConnector

snowflake_connector = await SnowflakeConnector.load("snowflake-connector")
target_configs = SnowflakeTargetConfigs(connector=snowflake_connector)
dbt_cli_profile = DbtCliProfile(
    name="jaffle_shop",
    target="dev",
    target_configs=target_configs,
)
dbt_init = DbtCoreOperation(
    commands=["dbt debug", "dbt list"],
    dbt_cli_profile=dbt_cli_profile,
    overwrite_profiles=True
)
dbt_init.run()
```

Execute a longer-lasting dbt run as a context manager.
```python
with DbtCoreOperation(commands=["dbt run"]) as dbt_run:
    dbt_process = dbt_run.trigger()
    # do other things
    dbt_process.wait_for_completion()
    dbt_output = dbt_process.fetch_result()
```',0,'dbt-core-operation');
INSERT INTO "block_type" VALUES('17b83265-c600-4acb-bc8f-e6557a9657ca','2026-12-06 04:42:14.719562','2026-12-06 04:42:14.719587','Docker Host','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/docker.png',NULL,'Store settings for interacting with a Docker host. This block is part of the prefect-docker collection. Install prefect-docker with `pip install prefect-docker` to use this block.','Get a Docker Host client.
```python
from prefect_docker import DockerHost

docker_host = DockerHost(
base_url="tcp://127.0.0.1:1234",
    max_pool_size=4
)
with docker_host.get_client() as client:
    ... # Use the client for Docker operations
```',0,'docker-host');
INSERT INTO "block_type" VALUES('69335185-00dc-419e-9dd9-cc2bbd12ecec','2026-12-06 04:42:14.724607','2026-12-06 04:42:14.724638','Docker Registry Credentials','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/docker.png',NULL,'Store credentials for interacting with a Docker Registry. This block is part of the prefect-docker collection. Install prefect-docker with `pip install prefect-docker` to use this block.','Log into Docker Registry.
```python
from prefect_docker import DockerHost, DockerRegistryCredentials

docker_host = DockerHost()
docker_registry_credentials = DockerRegistryCredentials(
    username="my_username",
    password="my_password",
    registry_url="registry.hub.docker.com",
)
with docker_host.get_client() as client:
    docker_registry_credentials.login(client)
```',0,'docker-registry-credentials');
INSERT INTO "block_type" VALUES('1cd54fbe-1d08-4c45-bb56-c9efa0227949','2026-12-06 04:42:14.729920','2026-12-06 04:42:14.729953','Email Server Credentials','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/email.png','https://prefecthq.github.io/prefect-email/credentials/#prefect_email.credentials.EmailServerCredentials','Block used to manage generic email server authentication.
It is recommended you use a
[Google App Password](https://support.google.com/accounts/answer/185833)
if you use Gmail. This block is part of the prefect-email collection. Install prefect-email with `pip install prefect-email` to use this block.','Load stored email server credentials:
```python
from prefect_email import EmailServerCredentials
email_credentials_block = EmailServerCredentials.load("BLOCK_NAME")
```',0,'email-server-credentials');
INSERT INTO "block_type" VALUES('de4d28b0-d814-42dd-a131-4b2a6316f562','2026-12-06 04:42:14.735280','2026-12-06 04:42:14.735309','BigQuery Warehouse','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/googlecloud.png','https://prefecthq.github.io/prefect-gcp/bigquery/#prefect_gcp.bigquery.BigQueryWarehouse','A block for querying a database with BigQuery.

Upon instantiating, a connection to BigQuery is established
and maintained for the life of the object until the close method is called.

It is recommended to use this block as a context manager, which will automatically
close the connection and its cursors when the context is exited.

It is also recommended that this block is loaded and consumed within a single task
or flow because if the block is passed across separate tasks and flows,
the state of the block''s connection and cursor could be lost. This block is part of the prefect-gcp collection. Install prefect-gcp with `pip install prefect-gcp` to use this block.','```python
from prefect_gcp.bigquery import BigQueryWarehouse

bigquery_warehouse_block = BigQueryWarehouse.load("BLOCK_NAME")
```',0,'bigquery-warehouse');
INSERT INTO "block_type" VALUES('a390f6e9-0fc6-4103-ae8f-6166cb2af576','2026-12-06 04:42:14.740241','2026-12-06 04:42:14.740267','GCP Credentials','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/googlecloud.png','https://prefecthq.github.io/prefect-gcp/credentials/#prefect_gcp.credentials.GcpCredentials','Block used to manage authentication with GCP. Google authentication is
handled via the `google.oauth2` module or through the CLI.
Specify either one of service `account_file` or `service_account_info`; if both
are not specified, the client will try to detect the credentials following Google''s
[Application Default Credentials](https://cloud.google.com/docs/authentication/application-default-credentials).
See Google''s [Authentication documentation](https://cloud.google.com/docs/authentication#service-accounts)
for details on inference and recommended authentication patterns. This block is part of the prefect-gcp collection. Install prefect-gcp with `pip install prefect-gcp` to use this block.','Load GCP credentials stored in a `GCP Credentials` Block:
```python
from prefect_gcp import GcpCredentials
gcp_credentials_block = GcpCredentials.load("BLOCK_NAME")
```',0,'gcp-credentials');
INSERT INTO "block_type" VALUES('e7db177a-78c0-4c08-ae41-da1264350b30','2026-12-06 04:42:14.744446','2026-12-06 04:42:14.744472','GcpSecret','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/googlecloud.png','https://prefecthq.github.io/prefect-gcp/secret_manager/#prefect_gcp.secret_manager.GcpSecret','Manages a secret in Google Cloud Platform''s Secret Manager. This block is part of the prefect-gcp collection. Install prefect-gcp with `pip install prefect-gcp` to use this block.','```python
from prefect_gcp.secret_manager import GcpSecret

gcpsecret_block = GcpSecret.load("BLOCK_NAME")
```',0,'gcpsecret');
INSERT INTO "block_type" VALUES('d034d258-7fcb-4019-bd27-6d8c935d47ae','2026-12-06 04:42:14.748926','2026-12-06 04:42:14.748953','GCS Bucket','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/googlecloud.png','https://prefecthq.github.io/prefect-gcp/cloud_storage/#prefect_gcp.cloud_storage.GcsBucket','Block used to store data using GCP Cloud Storage Buckets.

Note! `GcsBucket` in `prefect-gcp` is a unique block, separate from `GCS`
in core Prefect. `GcsBucket` does not use `gcsfs` under the hood,
instead using the `google-cloud-storage` package, and offers more configuration
and functionality. This block is part of the prefect-gcp collection. Install prefect-gcp with `pip install prefect-gcp` to use this block.','Load stored GCP Cloud Storage Bucket:
```python
from prefect_gcp.cloud_storage import GcsBucket
gcp_cloud_storage_bucket_block = GcsBucket.load("BLOCK_NAME")
```',0,'gcs-bucket');
INSERT INTO "block_type" VALUES('28d375f7-2bae-4a6c-ac29-5af48ff8fdc6','2026-12-06 04:42:14.753697','2026-12-06 04:42:14.753730','GitHub Credentials','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/github.png','https://prefecthq.github.io/prefect-github/credentials/#prefect_github.credentials.GitHubCredentials','Block used to manage GitHub authentication. This block is part of the prefect-github collection. Install prefect-github with `pip install prefect-github` to use this block.','Load stored GitHub credentials:
```python
from prefect_github import GitHubCredentials
github_credentials_block = GitHubCredentials.load("BLOCK_NAME")
```',0,'github-credentials');
INSERT INTO "block_type" VALUES('58d42e0a-857d-4485-9aa3-c8823d90bd52','2026-12-06 04:42:14.759703','2026-12-06 04:42:14.759755','GitHub Repository','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/github.png','https://prefecthq.github.io/prefect-github/repository/#prefect_github.repository.GitHubRepository','Interact with files stored on GitHub repositories. This block is part of the prefect-github collection. Install prefect-github with `pip install prefect-github` to use this block.','```python
from prefect_github.repository import GitHubRepository

github_repository_block = GitHubRepository.load("BLOCK_NAME")
```',0,'github-repository');
INSERT INTO "block_type" VALUES('2c0c2904-85cf-4c9b-9858-4e43b24d239e','2026-12-06 04:42:14.765318','2026-12-06 04:42:14.765356','GitLab Credentials','https://images.ctfassets.net/gm98wzqotmnx/55edIimT4g9gbjhkh5a3Sp/dfdb9391d8f45c2e93e72e3a4d350771/gitlab-logo-500.png?h=250',NULL,'Store a GitLab personal access token to interact with private GitLab
repositories. This block is part of the prefect-gitlab collection. Install prefect-gitlab with `pip install prefect-gitlab` to use this block.','Load stored GitLab credentials:
```python
from prefect_gitlab import GitLabCredentials
gitlab_credentials_block = GitLabCredentials.load("BLOCK_NAME")
```',0,'gitlab-credentials');
INSERT INTO "block_type" VALUES('65ac8778-eaa3-43fa-8e9c-5f4efa4b439f','2026-12-06 04:42:14.770949','2026-12-06 04:42:14.770989','GitLab Repository','https://images.ctfassets.net/gm98wzqotmnx/55edIimT4g9gbjhkh5a3Sp/dfdb9391d8f45c2e93e72e3a4d350771/gitlab-logo-500.png?h=250',NULL,'Interact with files stored in GitLab repositories. This block is part of the prefect-gitlab collection. Install prefect-gitlab with `pip install prefect-gitlab` to use this block.','```python
from prefect_gitlab.repositories import GitLabRepository

gitlab_repository_block = GitLabRepository.load("BLOCK_NAME")
```',0,'gitlab-repository');
INSERT INTO "block_type" VALUES('4ed0fc0c-0b19-4f16-8283-5bda7e4f654b','2026-12-06 04:42:14.777038','2026-12-06 04:42:14.777068','Kubernetes Cluster Config','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/kubernetes.png','https://www.prefect.io/docs/integrations/prefect-kubernetes','Stores configuration for interaction with Kubernetes clusters.

See `from_file` for creation.','Load a saved Kubernetes cluster config:
```python
from prefect.blocks.kubernetes import KubernetesClusterConfig

cluster_config_block = KubernetesClusterConfig.load("BLOCK_NAME")
```',0,'kubernetes-cluster-config');
INSERT INTO "block_type" VALUES('82bc7976-d1a9-421e-b663-ee751733a59e','2026-12-06 04:42:14.781386','2026-12-06 04:42:14.781414','Kubernetes Credentials','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/kubernetes.png','https://prefecthq.github.io/prefect-kubernetes/credentials/#prefect_kubernetes.credentials.KubernetesCredentials','Credentials block for generating configured Kubernetes API clients. This block is part of the prefect-kubernetes collection. Install prefect-kubernetes with `pip install prefect-kubernetes` to use this block.','Load stored Kubernetes credentials:
```python
from prefect_kubernetes.credentials import KubernetesCredentials

kubernetes_credentials = KubernetesCredentials.load("BLOCK_NAME")
```',0,'kubernetes-credentials');
INSERT INTO "block_type" VALUES('07f392e0-21aa-49ec-96f6-0273dc4f9086','2026-12-06 04:42:14.785448','2026-12-06 04:42:14.785474','Shell Operation','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/terminal.png','https://prefecthq.github.io/prefect-shell/commands/#prefect_shell.commands.ShellOperation','A block representing a shell operation, containing multiple commands.

For long-lasting operations, use the trigger method and utilize the block as a
context manager for automatic closure of processes when context is exited.
If not, manually call the close method to close processes.

For short-lasting operations, use the run method. Context is automatically managed
with this method. This block is part of the prefect-shell collection. Install prefect-shell with `pip install prefect-shell` to use this block.','Load a configured block:
```python
from prefect_shell import ShellOperation

shell_operation = ShellOperation.load("BLOCK_NAME")
```',0,'shell-operation');
INSERT INTO "block_type" VALUES('c2996ada-b821-4db3-a0cb-332f4a39dd17','2026-12-06 04:42:14.789801','2026-12-06 04:42:14.789829','Slack Credentials','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/slack.png','https://prefecthq.github.io/prefect-slack/credentials/#prefect_slack.credentials.SlackCredentials','Block holding Slack credentials for use in tasks and flows. This block is part of the prefect-slack collection. Install prefect-slack with `pip install prefect-slack` to use this block.','Load stored Slack credentials:
```python
from prefect_slack import SlackCredentials
slack_credentials_block = SlackCredentials.load("BLOCK_NAME")
```

Get a Slack client:
```python
from prefect_slack import SlackCredentials
slack_credentials_block = SlackCredentials.load("BLOCK_NAME")
client = slack_credentials_block.get_client()
```',0,'slack-credentials');
INSERT INTO "block_type" VALUES('f4272130-548e-481c-8705-c7de29a2d1f7','2026-12-06 04:42:14.793833','2026-12-06 04:42:14.793860','Snowflake Connector','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/snowflake.png','https://prefecthq.github.io/prefect-snowflake/database/#prefect_snowflake.database.SnowflakeConnector','Perform data operations against a Snowflake database. This block is part of the prefect-snowflake collection. Install prefect-snowflake with `pip install prefect-snowflake` to use this block.','Load stored Snowflake connector as a context manager:
```python
from prefect_snowflake.database import SnowflakeConnector

snowflake_connector = SnowflakeConnector.load("BLOCK_NAME"):
```

Insert data into database and fetch results.
```python
from prefect_snowflake.database import SnowflakeConnector

with SnowflakeConnector.load("BLOCK_NAME") as conn:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS customers (name varchar, address varchar);"
    )
    conn.execute_many(
        "INSERT INTO customers (name, address) VALUES (%(name)s, %(address)s);",
        seq_of_parameters=[
            {"name": "Ford", "address": "Highway 42"},
            {"name": "Unknown", "address": "Space"},
            {"name": "Me", "address": "Myway 88"},
        ],
    )
    results = conn.fetch_all(
        "SELECT * FROM customers WHERE address = %(address)s",
        parameters={"address": "Space"}
    )
    print(results)
```',0,'snowflake-connector');
INSERT INTO "block_type" VALUES('64192f0c-d717-4a64-8fc8-c98675d9836e','2026-12-06 04:42:14.798901','2026-12-06 04:42:14.798934','Snowflake Credentials','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/snowflake.png','https://prefecthq.github.io/prefect-snowflake/credentials/#prefect_snowflake.credentials.SnowflakeCredentials','Block used to manage authentication with Snowflake. This block is part of the prefect-snowflake collection. Install prefect-snowflake with `pip install prefect-snowflake` to use this block.','Load stored Snowflake credentials:
```python
from prefect_snowflake import SnowflakeCredentials

snowflake_credentials_block = SnowflakeCredentials.load("BLOCK_NAME")
```',0,'snowflake-credentials');
INSERT INTO "block_type" VALUES('73d43af2-1d5a-4e7a-8940-3c2d537663be','2026-12-06 04:42:14.804752','2026-12-06 04:42:14.804790','Database Credentials','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/sqlalchemy.png','https://prefecthq.github.io/prefect-sqlalchemy/credentials/#prefect_sqlalchemy.credentials.DatabaseCredentials','Block used to manage authentication with a database. This block is part of the prefect-sqlalchemy collection. Install prefect-sqlalchemy with `pip install prefect-sqlalchemy` to use this block.','Load stored database credentials:
```python
from prefect_sqlalchemy import DatabaseCredentials
database_block = DatabaseCredentials.load("BLOCK_NAME")
```',0,'database-credentials');
INSERT INTO "block_type" VALUES('b77fe1fa-f60a-4037-94ff-4a28fd5f9ca0','2026-12-06 04:42:14.810864','2026-12-06 04:42:14.810913','SQLAlchemy Connector','https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/sqlalchemy.png','https://prefecthq.github.io/prefect-sqlalchemy/database/#prefect_sqlalchemy.database.SqlAlchemyConnector','Block used to manage authentication with a database.

Upon instantiating, an engine is created and maintained for the life of
the object until the close method is called.

It is recommended to use this block as a context manager, which will automatically
close the engine and its connections when the context is exited.

It is also recommended that this block is loaded and consumed within a single task
or flow because if the block is passed across separate tasks and flows,
the state of the block''s connection and cursor could be lost. This block is part of the prefect-sqlalchemy collection. Install prefect-sqlalchemy with `pip install prefect-sqlalchemy` to use this block.','Load stored database credentials and use in context manager:
```python
from prefect_sqlalchemy import SqlAlchemyConnector

database_block = SqlAlchemyConnector.load("BLOCK_NAME")
with database_block:
    ...
```

Create table named customers and insert values; then fetch the first 10 rows.
```python
from prefect_sqlalchemy import (
    SqlAlchemyConnector, SyncDriver, ConnectionComponents
)

with SqlAlchemyConnector(
    connection_info=ConnectionComponents(
        driver=SyncDriver.SQLITE_PYSQLITE,
        database="prefect.db"
    )
) as database:
    database.execute(
        "CREATE TABLE IF NOT EXISTS customers (name varchar, address varchar);",
    )
    for i in range(1, 42):
        database.execute(
            "INSERT INTO customers (name, address) VALUES (:name, :address);",
            parameters={"name": "Marvin", "address": f"Highway {i}"},
        )
    results = database.fetch_many(
        "SELECT * FROM customers WHERE name = :name;",
        parameters={"name": "Marvin"},
        size=10
    )
print(results)
```',0,'sqlalchemy-connector');
CREATE TABLE composite_trigger_child_firing (
	automation_id CHAR(36) NOT NULL, 
	parent_trigger_id CHAR(36) NOT NULL, 
	child_trigger_id CHAR(36) NOT NULL, 
	child_firing_id CHAR(36) NOT NULL, 
	child_fired_at DATETIME, 
	child_firing JSON NOT NULL, 
	id CHAR(36) DEFAULT (
    (
        lower(hex(randomblob(4)))
        || '-'
        || lower(hex(randomblob(2)))
        || '-4'
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || substr('89ab',abs(random()) % 4 + 1, 1)
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || lower(hex(randomblob(6)))
    )
    ) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	CONSTRAINT pk_composite_trigger_child_firing PRIMARY KEY (id), 
	CONSTRAINT fk_composite_trigger_child_firing__automation_id__automation FOREIGN KEY(automation_id) REFERENCES automation (id) ON DELETE CASCADE
);
CREATE TABLE concurrency_limit (
	id CHAR(36) DEFAULT (
    (
        lower(hex(randomblob(4))) 
        || '-' 
        || lower(hex(randomblob(2))) 
        || '-4' 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || substr('89ab',abs(random()) % 4 + 1, 1) 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || lower(hex(randomblob(6)))
    )
    ) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	tag VARCHAR NOT NULL, 
	concurrency_limit INTEGER NOT NULL, 
	active_slots JSON DEFAULT '[]' NOT NULL, 
	CONSTRAINT pk_concurrency_limit PRIMARY KEY (id)
);
CREATE TABLE "concurrency_limit_v2" (
	id CHAR(36) DEFAULT ((
        lower(hex(randomblob(4)))
        || '-'
        || lower(hex(randomblob(2)))
        || '-4'
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || substr('89ab',abs(random()) % 4 + 1, 1)
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || lower(hex(randomblob(6)))
    )) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	active BOOLEAN NOT NULL, 
	name VARCHAR NOT NULL, 
	"limit" INTEGER NOT NULL, 
	active_slots INTEGER NOT NULL, 
	denied_slots INTEGER NOT NULL, 
	slot_decay_per_second FLOAT NOT NULL, 
	avg_slot_occupancy_seconds FLOAT NOT NULL, 
	CONSTRAINT pk_concurrency_limit_v2 PRIMARY KEY (id), 
	CONSTRAINT uq_concurrency_limit_v2__name UNIQUE (name)
);
CREATE TABLE configuration (
	id CHAR(36) DEFAULT (
    (
        lower(hex(randomblob(4))) 
        || '-' 
        || lower(hex(randomblob(2))) 
        || '-4' 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || substr('89ab',abs(random()) % 4 + 1, 1) 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || lower(hex(randomblob(6)))
    )
    ) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	"key" VARCHAR NOT NULL, 
	value JSON NOT NULL, 
	CONSTRAINT pk_configuration PRIMARY KEY (id), 
	CONSTRAINT uq_configuration__key UNIQUE ("key")
);
CREATE TABLE csrf_token (
	token VARCHAR NOT NULL, 
	client VARCHAR NOT NULL, 
	expiration DATETIME NOT NULL, 
	id CHAR(36) DEFAULT (
    (
        lower(hex(randomblob(4)))
        || '-'
        || lower(hex(randomblob(2)))
        || '-4'
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || substr('89ab',abs(random()) % 4 + 1, 1)
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || lower(hex(randomblob(6)))
    )
    ) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	CONSTRAINT pk_csrf_token PRIMARY KEY (id), 
	CONSTRAINT uq_csrf_token__client UNIQUE (client)
);
CREATE TABLE "deployment" (
	id CHAR(36) DEFAULT ((
        lower(hex(randomblob(4))) 
        || '-' 
        || lower(hex(randomblob(2))) 
        || '-4' 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || substr('89ab',abs(random()) % 4 + 1, 1) 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || lower(hex(randomblob(6)))
    )) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	name VARCHAR NOT NULL, 
	tags JSON DEFAULT '[]' NOT NULL, 
	parameters JSON DEFAULT '{}' NOT NULL, 
	flow_id CHAR(36) NOT NULL, 
	description TEXT, 
	infrastructure_document_id CHAR(36), 
	parameter_openapi_schema JSON, 
	storage_document_id CHAR(36), 
	version VARCHAR, 
	infra_overrides JSON DEFAULT '{}' NOT NULL, 
	path VARCHAR, 
	entrypoint VARCHAR, 
	work_queue_name VARCHAR, 
	created_by JSON, 
	updated_by JSON, 
	work_queue_id CHAR(36), 
	pull_steps JSON, 
	enforce_parameter_schema BOOLEAN DEFAULT '0' NOT NULL, 
	last_polled DATETIME, 
	paused BOOLEAN DEFAULT '0' NOT NULL, 
	status VARCHAR(9) DEFAULT 'NOT_READY' NOT NULL, 
	concurrency_limit INTEGER, 
	concurrency_options JSON, 
	concurrency_limit_id CHAR(36), 
	labels JSON, version_id CHAR(36), 
	CONSTRAINT pk_deployment PRIMARY KEY (id), 
	CONSTRAINT fk_deployment__infrastructure_document_id__block_document FOREIGN KEY(infrastructure_document_id) REFERENCES block_document (id) ON DELETE CASCADE, 
	CONSTRAINT fk_deployment__concurrency_limit_id__concurrency_limit_v2 FOREIGN KEY(concurrency_limit_id) REFERENCES concurrency_limit_v2 (id) ON DELETE SET NULL, 
	CONSTRAINT fk_deployment__storage_document_id__block_document FOREIGN KEY(storage_document_id) REFERENCES block_document (id) ON DELETE CASCADE, 
	CONSTRAINT fk_deployment__flow_id__flow FOREIGN KEY(flow_id) REFERENCES flow (id) ON DELETE CASCADE, 
	CONSTRAINT fk_deployment__work_queue_id__work_queue FOREIGN KEY(work_queue_id) REFERENCES work_queue (id) ON DELETE SET NULL
);
CREATE TABLE "deployment_schedule" (
	id CHAR(36) DEFAULT ((
        lower(hex(randomblob(4)))
        || '-'
        || lower(hex(randomblob(2)))
        || '-4'
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || substr('89ab',abs(random()) % 4 + 1, 1)
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || lower(hex(randomblob(6)))
    )) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	schedule JSON NOT NULL, 
	active BOOLEAN NOT NULL, 
	deployment_id CHAR(36) NOT NULL, 
	max_scheduled_runs INTEGER, parameters JSON DEFAULT '{}' NOT NULL, slug VARCHAR, 
	CONSTRAINT pk_deployment_schedule PRIMARY KEY (id), 
	CONSTRAINT fk_deployment_schedule__deployment_id__deployment FOREIGN KEY(deployment_id) REFERENCES deployment (id) ON DELETE CASCADE
);
CREATE TABLE deployment_version (
	deployment_id CHAR(36) NOT NULL, 
	branch VARCHAR, 
	version_info JSON DEFAULT '{}' NOT NULL, 
	description TEXT, 
	tags JSON DEFAULT '[]' NOT NULL, 
	labels JSON, 
	entrypoint VARCHAR, 
	pull_steps JSON, 
	parameters JSON DEFAULT '{}' NOT NULL, 
	parameter_openapi_schema JSON, 
	enforce_parameter_schema BOOLEAN DEFAULT '0' NOT NULL, 
	work_queue_id CHAR(36), 
	work_queue_name VARCHAR, 
	infra_overrides JSON DEFAULT '{}' NOT NULL, 
	id CHAR(36) DEFAULT (GEN_RANDOM_UUID()) NOT NULL, 
	created DATETIME DEFAULT CURRENT_TIMESTAMP NOT NULL, 
	updated DATETIME DEFAULT CURRENT_TIMESTAMP NOT NULL, 
	CONSTRAINT pk_deployment_version PRIMARY KEY (id), 
	CONSTRAINT fk_deployment_version__deployment_id__deployment FOREIGN KEY(deployment_id) REFERENCES deployment (id) ON DELETE CASCADE, 
	CONSTRAINT fk_deployment_version__work_queue_id__work_queue FOREIGN KEY(work_queue_id) REFERENCES work_queue (id) ON DELETE SET NULL
);
CREATE TABLE event_resources (
	occurred DATETIME NOT NULL, 
	resource_id TEXT NOT NULL, 
	resource_role TEXT NOT NULL, 
	resource JSON NOT NULL, 
	event_id CHAR(36) NOT NULL, 
	id CHAR(36) DEFAULT (
    (
        lower(hex(randomblob(4)))
        || '-'
        || lower(hex(randomblob(2)))
        || '-4'
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || substr('89ab',abs(random()) % 4 + 1, 1)
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || lower(hex(randomblob(6)))
    )
    ) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	CONSTRAINT pk_event_resources PRIMARY KEY (id)
);
CREATE TABLE events (
	occurred DATETIME NOT NULL, 
	event TEXT NOT NULL, 
	resource_id TEXT NOT NULL, 
	resource JSON NOT NULL, 
	related_resource_ids JSON DEFAULT '[]' NOT NULL, 
	related JSON DEFAULT '[]' NOT NULL, 
	payload JSON NOT NULL, 
	received DATETIME NOT NULL, 
	recorded DATETIME NOT NULL, 
	follows CHAR(36), 
	id CHAR(36) DEFAULT (
    (
        lower(hex(randomblob(4)))
        || '-'
        || lower(hex(randomblob(2)))
        || '-4'
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || substr('89ab',abs(random()) % 4 + 1, 1)
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || lower(hex(randomblob(6)))
    )
    ) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	CONSTRAINT pk_events PRIMARY KEY (id)
);
CREATE TABLE flow (
	id CHAR(36) DEFAULT (
    (
        lower(hex(randomblob(4))) 
        || '-' 
        || lower(hex(randomblob(2))) 
        || '-4' 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || substr('89ab',abs(random()) % 4 + 1, 1) 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || lower(hex(randomblob(6)))
    )
    ) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	name VARCHAR NOT NULL, 
	tags JSON DEFAULT '[]' NOT NULL, labels JSON, 
	CONSTRAINT pk_flow PRIMARY KEY (id), 
	CONSTRAINT uq_flow__name UNIQUE (name)
);
CREATE TABLE "flow_run" (
	id CHAR(36) DEFAULT ((
        lower(hex(randomblob(4))) 
        || '-' 
        || lower(hex(randomblob(2))) 
        || '-4' 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || substr('89ab',abs(random()) % 4 + 1, 1) 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || lower(hex(randomblob(6)))
    )) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	name VARCHAR NOT NULL, 
	state_type VARCHAR(9), 
	run_count INTEGER DEFAULT '0' NOT NULL, 
	expected_start_time DATETIME, 
	next_scheduled_start_time DATETIME, 
	start_time DATETIME, 
	end_time DATETIME, 
	total_run_time DATETIME DEFAULT '0' NOT NULL, 
	flow_version VARCHAR, 
	parameters JSON DEFAULT '{}' NOT NULL, 
	idempotency_key VARCHAR, 
	context JSON DEFAULT '{}' NOT NULL, 
	empirical_policy JSON DEFAULT '{}' NOT NULL, 
	tags JSON DEFAULT '[]' NOT NULL, 
	auto_scheduled BOOLEAN DEFAULT '0' NOT NULL, 
	flow_id CHAR(36) NOT NULL, 
	deployment_id CHAR(36), 
	parent_task_run_id CHAR(36), 
	state_id CHAR(36), 
	state_name VARCHAR, 
	infrastructure_document_id CHAR(36), 
	work_queue_name VARCHAR, 
	state_timestamp DATETIME, 
	created_by JSON, 
	infrastructure_pid VARCHAR, 
	work_queue_id CHAR(36), job_variables JSON DEFAULT '{}', deployment_version VARCHAR, labels JSON, 
	CONSTRAINT pk_flow_run PRIMARY KEY (id), 
	CONSTRAINT fk_flow_run__state_id__flow_run_state FOREIGN KEY(state_id) REFERENCES flow_run_state (id) ON DELETE SET NULL, 
	CONSTRAINT fk_flow_run__infrastructure_document_id__block_document FOREIGN KEY(infrastructure_document_id) REFERENCES block_document (id) ON DELETE CASCADE, 
	CONSTRAINT fk_flow_run__flow_id__flow FOREIGN KEY(flow_id) REFERENCES flow (id) ON DELETE CASCADE, 
	CONSTRAINT fk_flow_run__work_queue_id__work_queue FOREIGN KEY(work_queue_id) REFERENCES work_queue (id) ON DELETE SET NULL, 
	CONSTRAINT fk_flow_run__parent_task_run_id__task_run FOREIGN KEY(parent_task_run_id) REFERENCES task_run (id) ON DELETE SET NULL
);
CREATE TABLE "flow_run_input" (
	id CHAR(36) DEFAULT ((
        lower(hex(randomblob(4)))
        || '-'
        || lower(hex(randomblob(2)))
        || '-4'
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || substr('89ab',abs(random()) % 4 + 1, 1)
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || lower(hex(randomblob(6)))
    )) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	"key" VARCHAR NOT NULL, 
	value TEXT NOT NULL, 
	flow_run_id CHAR(36) NOT NULL, sender VARCHAR, 
	CONSTRAINT pk_flow_run_input PRIMARY KEY (id), 
	CONSTRAINT uq_flow_run_input__flow_run_id_key UNIQUE (flow_run_id, "key"), 
	CONSTRAINT fk_flow_run_input__flow_run_id__flow_run FOREIGN KEY(flow_run_id) REFERENCES flow_run (id) ON DELETE cascade
);
CREATE TABLE "flow_run_state" (
	id CHAR(36) DEFAULT ((
        lower(hex(randomblob(4))) 
        || '-' 
        || lower(hex(randomblob(2))) 
        || '-4' 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || substr('89ab',abs(random()) % 4 + 1, 1) 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || lower(hex(randomblob(6)))
    )) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	type VARCHAR(9) NOT NULL, 
	timestamp DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	name VARCHAR NOT NULL, 
	message VARCHAR, 
	state_details JSON DEFAULT '{}' NOT NULL, 
	data JSON, 
	flow_run_id CHAR(36) NOT NULL, 
	result_artifact_id CHAR(36), 
	CONSTRAINT pk_flow_run_state PRIMARY KEY (id), 
	CONSTRAINT fk_flow_run_state__result_artifact_id__artifact FOREIGN KEY(result_artifact_id) REFERENCES artifact (id) ON DELETE SET NULL, 
	CONSTRAINT fk_flow_run_state__flow_run_id__flow_run FOREIGN KEY(flow_run_id) REFERENCES flow_run (id) ON DELETE CASCADE
);
CREATE TABLE "log" (
	id CHAR(36) DEFAULT ((
        lower(hex(randomblob(4))) 
        || '-' 
        || lower(hex(randomblob(2))) 
        || '-4' 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || substr('89ab',abs(random()) % 4 + 1, 1) 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || lower(hex(randomblob(6)))
    )) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	name VARCHAR NOT NULL, 
	level SMALLINT NOT NULL, 
	flow_run_id CHAR(36), 
	task_run_id CHAR(36), 
	message TEXT NOT NULL, 
	timestamp DATETIME NOT NULL, 
	CONSTRAINT pk_log PRIMARY KEY (id)
);
CREATE TABLE saved_search (
	id CHAR(36) DEFAULT (
    (
        lower(hex(randomblob(4))) 
        || '-' 
        || lower(hex(randomblob(2))) 
        || '-4' 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || substr('89ab',abs(random()) % 4 + 1, 1) 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || lower(hex(randomblob(6)))
    )
    ) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	name VARCHAR NOT NULL, 
	filters JSON DEFAULT '[]' NOT NULL, 
	CONSTRAINT pk_saved_search PRIMARY KEY (id), 
	CONSTRAINT uq_saved_search__name UNIQUE (name)
);
CREATE TABLE "task_run" (
	id CHAR(36) DEFAULT ((
        lower(hex(randomblob(4))) 
        || '-' 
        || lower(hex(randomblob(2))) 
        || '-4' 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || substr('89ab',abs(random()) % 4 + 1, 1) 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || lower(hex(randomblob(6)))
    )) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	name VARCHAR NOT NULL, 
	state_type VARCHAR(9), 
	run_count INTEGER DEFAULT '0' NOT NULL, 
	expected_start_time DATETIME, 
	next_scheduled_start_time DATETIME, 
	start_time DATETIME, 
	end_time DATETIME, 
	total_run_time DATETIME DEFAULT '0' NOT NULL, 
	task_key VARCHAR NOT NULL, 
	dynamic_key VARCHAR NOT NULL, 
	cache_key VARCHAR, 
	cache_expiration DATETIME, 
	task_version VARCHAR, 
	empirical_policy JSON DEFAULT '{}' NOT NULL, 
	task_inputs JSON DEFAULT '{}' NOT NULL, 
	tags JSON DEFAULT '[]' NOT NULL, 
	flow_run_id CHAR(36), 
	state_id CHAR(36), 
	state_name VARCHAR, 
	state_timestamp DATETIME, 
	flow_run_run_count INTEGER DEFAULT '0' NOT NULL, 
	labels JSON, 
	CONSTRAINT pk_task_run PRIMARY KEY (id), 
	CONSTRAINT fk_task_run__flow_run_id__flow_run FOREIGN KEY(flow_run_id) REFERENCES flow_run (id) ON DELETE CASCADE
);
CREATE TABLE "task_run_state" (
	id CHAR(36) DEFAULT ((
        lower(hex(randomblob(4))) 
        || '-' 
        || lower(hex(randomblob(2))) 
        || '-4' 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || substr('89ab',abs(random()) % 4 + 1, 1) 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || lower(hex(randomblob(6)))
    )) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	type VARCHAR(9) NOT NULL, 
	timestamp DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	name VARCHAR NOT NULL, 
	message VARCHAR, 
	state_details JSON DEFAULT '{}' NOT NULL, 
	data JSON, 
	task_run_id CHAR(36) NOT NULL, 
	result_artifact_id CHAR(36), 
	CONSTRAINT pk_task_run_state PRIMARY KEY (id), 
	CONSTRAINT fk_task_run_state__task_run_id__task_run FOREIGN KEY(task_run_id) REFERENCES task_run (id) ON DELETE CASCADE, 
	CONSTRAINT fk_task_run_state__result_artifact_id__artifact FOREIGN KEY(result_artifact_id) REFERENCES artifact (id) ON DELETE SET NULL
);
CREATE TABLE task_run_state_cache (
	id CHAR(36) DEFAULT (
    (
        lower(hex(randomblob(4))) 
        || '-' 
        || lower(hex(randomblob(2))) 
        || '-4' 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || substr('89ab',abs(random()) % 4 + 1, 1) 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || lower(hex(randomblob(6)))
    )
    ) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	cache_key VARCHAR NOT NULL, 
	cache_expiration DATETIME, 
	task_run_state_id CHAR(36) NOT NULL, 
	CONSTRAINT pk_task_run_state_cache PRIMARY KEY (id)
);
CREATE TABLE "variable" (
	id CHAR(36) DEFAULT ((
        lower(hex(randomblob(4)))
        || '-'
        || lower(hex(randomblob(2)))
        || '-4'
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || substr('89ab',abs(random()) % 4 + 1, 1)
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || lower(hex(randomblob(6)))
    )) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	name VARCHAR NOT NULL, 
	tags JSON DEFAULT '[]' NOT NULL, 
	value JSON, 
	CONSTRAINT pk_variable PRIMARY KEY (id), 
	CONSTRAINT uq_variable__name UNIQUE (name)
);
CREATE TABLE "work_pool" (
	id CHAR(36) DEFAULT ((
        lower(hex(randomblob(4)))
        || '-'
        || lower(hex(randomblob(2)))
        || '-4'
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || substr('89ab',abs(random()) % 4 + 1, 1)
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || lower(hex(randomblob(6)))
    )) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	name VARCHAR NOT NULL, 
	description VARCHAR, 
	type VARCHAR NOT NULL, 
	base_job_template JSON DEFAULT '{}' NOT NULL, 
	is_paused BOOLEAN DEFAULT '0' NOT NULL, 
	concurrency_limit INTEGER, 
	default_queue_id CHAR(36), status VARCHAR(9) DEFAULT 'NOT_READY' NOT NULL, last_transitioned_status_at DATETIME, last_status_event_id CHAR(36), storage_configuration JSON DEFAULT '{}' NOT NULL, 
	CONSTRAINT pk_work_pool PRIMARY KEY (id), 
	CONSTRAINT uq_work_pool__name UNIQUE (name), 
	CONSTRAINT fk_work_pool__default_queue_id__work_queue FOREIGN KEY(default_queue_id) REFERENCES work_queue (id) ON DELETE RESTRICT
);
CREATE TABLE "work_queue" (
	id CHAR(36) DEFAULT ((
        lower(hex(randomblob(4))) 
        || '-' 
        || lower(hex(randomblob(2))) 
        || '-4' 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || substr('89ab',abs(random()) % 4 + 1, 1) 
        || substr(lower(hex(randomblob(2))),2) 
        || '-' 
        || lower(hex(randomblob(6)))
    )) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	name VARCHAR NOT NULL, 
	filter JSON, 
	description VARCHAR DEFAULT ('') NOT NULL, 
	is_paused BOOLEAN DEFAULT '0' NOT NULL, 
	concurrency_limit INTEGER, 
	last_polled DATETIME, 
	priority INTEGER DEFAULT '1' NOT NULL, 
	work_pool_id CHAR(36) NOT NULL, status VARCHAR(9) DEFAULT 'NOT_READY' NOT NULL, 
	CONSTRAINT pk_work_queue PRIMARY KEY (id), 
	CONSTRAINT uq_work_queue__work_pool_id_name UNIQUE (work_pool_id, name), 
	CONSTRAINT fk_work_queue__work_pool_id__work_pool FOREIGN KEY(work_pool_id) REFERENCES work_pool (id) ON DELETE CASCADE
);
CREATE TABLE worker (
	id CHAR(36) DEFAULT (
    (
        lower(hex(randomblob(4)))
        || '-'
        || lower(hex(randomblob(2)))
        || '-4'
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || substr('89ab',abs(random()) % 4 + 1, 1)
        || substr(lower(hex(randomblob(2))),2)
        || '-'
        || lower(hex(randomblob(6)))
    )
    ) NOT NULL, 
	created DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	updated DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	name VARCHAR NOT NULL, 
	last_heartbeat_time DATETIME DEFAULT (strftime('%Y-%m-%d %H:%M:%f000', 'now')) NOT NULL, 
	work_pool_id CHAR(36) NOT NULL, heartbeat_interval_seconds INTEGER, status VARCHAR(7) DEFAULT 'OFFLINE' NOT NULL, 
	CONSTRAINT pk_worker PRIMARY KEY (id), 
	CONSTRAINT fk_worker__work_pool_id__work_pool FOREIGN KEY(work_pool_id) REFERENCES work_pool (id) ON DELETE cascade, 
	CONSTRAINT uq_worker__work_pool_id_name UNIQUE (work_pool_id, name)
);
CREATE INDEX ix_flow__updated ON flow (updated);
CREATE INDEX ix_concurrency_limit__updated ON concurrency_limit (updated);
CREATE INDEX ix_saved_search__updated ON saved_search (updated);
CREATE INDEX ix_task_run_state_cache__cache_key_created_desc ON task_run_state_cache (cache_key, created DESC);
CREATE INDEX ix_task_run_state_cache__updated ON task_run_state_cache (updated);
CREATE INDEX ix_agent__updated ON agent (updated);
CREATE INDEX ix_agent__work_queue_id ON agent (work_queue_id);
CREATE INDEX ix_configuration__key ON configuration ("key");
CREATE INDEX ix_configuration__updated ON configuration (updated);
CREATE INDEX ix_flow__created ON flow (created);
CREATE INDEX ix_block_schema__updated ON block_schema (updated);
CREATE INDEX ix_block_schema_reference__updated ON block_schema_reference (updated);
CREATE INDEX ix_flow_name_case_insensitive on flow (name COLLATE NOCASE);
CREATE INDEX ix_block_schema__block_type_id ON block_schema (block_type_id);
CREATE INDEX ix_block_schema__created ON block_schema (created);
CREATE INDEX ix_block_document__is_anonymous ON block_document (is_anonymous);
CREATE UNIQUE INDEX uq_block__type_id_name ON block_document (block_type_id, name);
CREATE INDEX ix_block_document__updated ON block_document (updated);
CREATE INDEX ix_block_document__name ON block_document (name);
CREATE INDEX ix_block_type__updated ON block_type (updated);
CREATE INDEX ix_block_type_name_case_insensitive ON block_type (name);
CREATE UNIQUE INDEX uq_block_type__slug ON block_type (slug);
CREATE UNIQUE INDEX uq_concurrency_limit__tag ON concurrency_limit (tag);
CREATE UNIQUE INDEX uq_block_schema__checksum_version ON block_schema (checksum, version);
CREATE INDEX ix_worker__updated ON worker (updated);
CREATE INDEX ix_worker__work_pool_id_last_heartbeat_time ON worker (work_pool_id, last_heartbeat_time);
CREATE INDEX ix_worker__work_pool_id ON worker (work_pool_id);
CREATE INDEX ix_flow_run_state__result_artifact_id ON flow_run_state (result_artifact_id);
CREATE INDEX ix_flow_run_state__name ON flow_run_state (name);
CREATE INDEX ix_flow_run_state__updated ON flow_run_state (updated);
CREATE INDEX ix_flow_run_state__type ON flow_run_state (type);
CREATE UNIQUE INDEX uq_flow_run_state__flow_run_id_timestamp_desc ON flow_run_state (flow_run_id, timestamp);
CREATE INDEX ix_task_run_state__updated ON task_run_state (updated);
CREATE INDEX ix_task_run_state__type ON task_run_state (type);
CREATE UNIQUE INDEX uq_task_run_state__task_run_id_timestamp_desc ON task_run_state (task_run_id, timestamp);
CREATE INDEX ix_task_run_state__name ON task_run_state (name);
CREATE INDEX ix_task_run_state__result_artifact_id ON task_run_state (result_artifact_id);
CREATE INDEX ix_work_pool__updated ON work_pool (updated);
CREATE INDEX ix_work_pool__type ON work_pool (type);
CREATE INDEX ix_work_queue__updated ON work_queue (updated);
CREATE INDEX ix_work_queue__work_pool_id ON work_queue (work_pool_id);
CREATE INDEX ix_work_queue__work_pool_id_priority ON work_queue (work_pool_id, priority);
CREATE INDEX ix_artifact__updated ON artifact (updated);
CREATE INDEX ix_artifact__flow_run_id ON artifact (flow_run_id);
CREATE INDEX ix_artifact__task_run_id ON artifact (task_run_id);
CREATE INDEX ix_flow_run__state_type ON flow_run (state_type);
CREATE INDEX ix_flow_run__parent_task_run_id ON flow_run (parent_task_run_id);
CREATE INDEX ix_flow_run__state_name ON flow_run (state_name);
CREATE INDEX ix_flow_run__flow_version ON flow_run (flow_version);
CREATE UNIQUE INDEX uq_flow_run__flow_id_idempotency_key ON flow_run (flow_id, idempotency_key);
CREATE INDEX ix_flow_run__updated ON flow_run (updated);
CREATE INDEX ix_flow_run__state_id ON flow_run (state_id);
CREATE INDEX ix_flow_run__infrastructure_document_id ON flow_run (infrastructure_document_id);
CREATE INDEX ix_flow_run__work_queue_id ON flow_run (work_queue_id);
CREATE INDEX ix_flow_run__end_time_desc ON flow_run (end_time);
CREATE INDEX ix_flow_run__expected_start_time_desc ON flow_run (expected_start_time);
CREATE INDEX ix_flow_run__start_time ON flow_run (start_time);
CREATE INDEX ix_flow_run__name ON flow_run (name);
CREATE INDEX ix_flow_run__work_queue_name ON flow_run (work_queue_name);
CREATE INDEX ix_flow_run__state_timestamp ON flow_run (state_timestamp);
CREATE INDEX ix_flow_run_name_case_insensitive ON flow_run (name);
CREATE INDEX ix_flow_run__flow_id ON flow_run (flow_id);
CREATE INDEX ix_flow_run__next_scheduled_start_time_asc ON flow_run (next_scheduled_start_time);
CREATE INDEX ix_artifact__key ON artifact ("key");
CREATE INDEX ix_artifact_collection__key_latest_id ON artifact_collection ("key", latest_id);
CREATE INDEX ix_concurrency_limit_v2__updated ON concurrency_limit_v2 (updated);
CREATE INDEX ix_log__updated ON log (updated);
CREATE INDEX ix_log__task_run_id ON log (task_run_id);
CREATE INDEX ix_log__timestamp ON log (timestamp);
CREATE INDEX ix_log__flow_run_id_timestamp ON log (flow_run_id, timestamp);
CREATE INDEX ix_log__flow_run_id ON log (flow_run_id);
CREATE INDEX ix_log__level ON log (level);
CREATE INDEX ix_block_document_name_case_insensitive on block_document (name COLLATE NOCASE);
CREATE INDEX ix_flow_run_input__updated ON flow_run_input (updated);
CREATE INDEX ix_csrf_token__updated ON csrf_token (updated);
CREATE INDEX ix_automation__updated ON automation (updated);
CREATE INDEX ix_automation_related_resource__resource_id ON automation_related_resource (resource_id);
CREATE INDEX ix_automation_related_resource__updated ON automation_related_resource (updated);
CREATE UNIQUE INDEX uq_automation_related_resource__automation_id__resource_id ON automation_related_resource (automation_id, resource_id);
CREATE INDEX ix_composite_trigger_child_firing__updated ON composite_trigger_child_firing (updated);
CREATE UNIQUE INDEX uq_composite_trigger_child_firing__a_id__pt_id__ct__id ON composite_trigger_child_firing (automation_id, parent_trigger_id, child_trigger_id);
CREATE INDEX ix_flow_run__deployment_version ON flow_run (deployment_version);
CREATE INDEX ix_automation_bucket__updated ON automation_bucket (updated);
CREATE INDEX ix_automation_bucket__automation_id__end ON automation_bucket (automation_id, "end");
CREATE UNIQUE INDEX uq_automation_bucket__automation_id__trigger_id__bucketing_key ON automation_bucket (automation_id, trigger_id, bucketing_key);
CREATE INDEX ix_event_resources__resource_id__occurred ON event_resources (resource_id, occurred);
CREATE INDEX ix_event_resources__updated ON event_resources (updated);
CREATE INDEX ix_events__event__id ON events (event, id);
CREATE INDEX ix_events__event_occurred_id ON events (event, occurred, id);
CREATE INDEX ix_events__event_related_occurred ON events (event, related, occurred);
CREATE INDEX ix_events__event_resource_id_occurred ON events (event, resource_id, occurred);
CREATE INDEX ix_events__occurred ON events (occurred);
CREATE INDEX ix_events__occurred_id ON events (occurred, id);
CREATE INDEX ix_events__related_resource_ids ON events (related_resource_ids);
CREATE INDEX ix_events__updated ON events (updated);
CREATE INDEX ix_variable__updated ON variable (updated);
CREATE INDEX ix_automation_event_follower__leader_event_id ON automation_event_follower (leader_event_id);
CREATE INDEX ix_automation_event_follower__updated ON automation_event_follower (updated);
CREATE INDEX ix_automation_event_follower__received ON automation_event_follower (received);
CREATE INDEX ix_automation_event_follower__scope ON automation_event_follower (scope);
CREATE UNIQUE INDEX uq_follower_for_scope ON automation_event_follower (scope, follower_event_id);
CREATE INDEX ix_artifact_collection__updated ON artifact_collection (updated);
CREATE INDEX ix_artifact__key_created_desc ON artifact ("key", created DESC);
CREATE INDEX ix_block_document__block_type_name__name ON block_document (block_type_name, name);
CREATE INDEX ix_deployment__created ON deployment (created);
CREATE INDEX ix_deployment__work_queue_id ON deployment (work_queue_id);
CREATE INDEX ix_deployment__paused ON deployment (paused);
CREATE INDEX ix_deployment__updated ON deployment (updated);
CREATE INDEX ix_deployment__flow_id ON deployment (flow_id);
CREATE INDEX ix_deployment__work_queue_name ON deployment (work_queue_name);
CREATE UNIQUE INDEX uq_deployment__flow_id_name ON deployment (flow_id, name);
CREATE INDEX ix_deployment_name_case_insensitive ON deployment (name);
CREATE INDEX ix_deployment_schedule__deployment_id ON deployment_schedule (deployment_id);
CREATE INDEX ix_deployment_schedule__updated ON deployment_schedule (updated);
CREATE INDEX ix_flow_run__scheduler_deployment_id_auto_scheduled_next_schedu ON flow_run (deployment_id, auto_scheduled, next_scheduled_start_time) WHERE state_type = 'SCHEDULED';
CREATE INDEX ix_deployment_schedule__slug ON deployment_schedule (slug);
CREATE UNIQUE INDEX ix_deployment_schedule__deployment_id__slug
        ON deployment_schedule(deployment_id, slug)
        WHERE slug IS NOT NULL;
CREATE INDEX ix_deployment_version__deployment_id ON deployment_version (deployment_id);
CREATE INDEX ix_deployment_version__updated ON deployment_version (updated);
CREATE INDEX ix_deployment_version__work_queue_id ON deployment_version (work_queue_id);
CREATE INDEX ix_deployment_version__work_queue_name ON deployment_version (work_queue_name);
CREATE UNIQUE INDEX uq_deployment_version__deployment__branch ON deployment_version (deployment_id, branch);
CREATE INDEX ix_deployment__version_id ON deployment (version_id);
CREATE INDEX ix_ae_follower_scope_leader ON automation_event_follower (scope, leader_event_id);
CREATE INDEX ix_task_run__start_time ON task_run (start_time);
CREATE INDEX ix_task_run__state_timestamp ON task_run (state_timestamp);
CREATE INDEX ix_task_run__state_type ON task_run (state_type);
CREATE INDEX ix_task_run__name ON task_run (name);
CREATE INDEX ix_task_run__end_time_desc ON task_run (end_time);
CREATE INDEX ix_task_run__flow_run_id ON task_run (flow_run_id);
CREATE INDEX ix_task_run__expected_start_time_desc ON task_run (expected_start_time);
CREATE INDEX ix_task_run__state_id ON task_run (state_id);
CREATE INDEX ix_task_run_name_case_insensitive ON task_run (name);
CREATE UNIQUE INDEX uq_task_run__flow_run_id_task_key_dynamic_key ON task_run (flow_run_id, task_key, dynamic_key);
CREATE INDEX ix_task_run__updated ON task_run (updated);
CREATE INDEX ix_task_run__next_scheduled_start_time_asc ON task_run (next_scheduled_start_time);
CREATE INDEX ix_task_run__state_name ON task_run (state_name);
CREATE INDEX ix_flow_run__schedule_id_scheduler
        ON flow_run (deployment_id, json_extract(created_by, '$.id'), next_scheduled_start_time)
        WHERE state_type = 'SCHEDULED' AND auto_scheduled = 1;
CREATE INDEX ix_task_run__state_type_start_time
        ON task_run (state_type, start_time)
        ;
CREATE INDEX ix_block_document_reference__updated ON block_document_reference (updated);
CREATE INDEX ix_event_resources__occurred
        ON event_resources (occurred)
        ;
CREATE INDEX ix_event_resources__event_id
        ON event_resources (event_id)
        ;
CREATE INDEX ix_flow_run__deployment_id
        ON flow_run (deployment_id)
        ;
CREATE INDEX ix_flow_run__state_type_coalesce_start_time
        ON flow_run (state_type, coalesce(start_time, expected_start_time))
        ;
CREATE UNIQUE INDEX uq_automation_held_event__trigger_key_event ON automation_held_event (automation_id, trigger_id, bucketing_key, event_id);
CREATE INDEX ix_automation_held_event__trigger_key_occurred ON automation_held_event (automation_id, trigger_id, bucketing_key, occurred, event_id);
CREATE INDEX ix_automation_held_event__updated ON automation_held_event (updated);
CREATE INDEX ix_flow_run_state__type_name_timestamp ON flow_run_state (type, name, timestamp);
CREATE INDEX ix_task_run_state__type_name_timestamp ON task_run_state (type, name, timestamp);
COMMIT;
