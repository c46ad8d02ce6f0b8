CREATE TABLE "data_queries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"record_id" uuid NOT NULL,
	"path" text NOT NULL,
	"origin" text NOT NULL,
	"message" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"raised_by" uuid,
	"raised_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answer" text,
	"answered_by" uuid,
	"answered_at" timestamp with time zone,
	"closed_by" uuid,
	"closed_at" timestamp with time zone,
	"close_note" text,
	CONSTRAINT "data_queries_origin_ck" CHECK ("data_queries"."origin" in ('auto', 'manual')),
	CONSTRAINT "data_queries_status_ck" CHECK ("data_queries"."status" in ('open', 'answered', 'closed'))
);
--> statement-breakpoint
CREATE TABLE "import_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"file_id" uuid,
	"file_name" text NOT NULL,
	"version_id" uuid NOT NULL,
	"row_count" integer NOT NULL,
	"created_patients" integer NOT NULL,
	"updated_patients" integer NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "page_configs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"project_id" uuid,
	"page_key" text NOT NULL,
	"config" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "page_configs_user_project_page_uq" UNIQUE NULLS NOT DISTINCT("user_id","project_id","page_key")
);
--> statement-breakpoint
CREATE TABLE "record_value_versions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"record_id" uuid NOT NULL,
	"path" text NOT NULL,
	"value" jsonb,
	"reason" text,
	"source_type" text NOT NULL,
	"source_ref" jsonb,
	"record_row_version" integer NOT NULL,
	"actor_id" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "record_value_versions_source_ck" CHECK ("record_value_versions"."source_type" in ('manual', 'import', 'recognition', 'api', 'calc'))
);
--> statement-breakpoint
CREATE TABLE "sdv_marks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"record_id" uuid NOT NULL,
	"path" text NOT NULL,
	"value_version_id" bigint NOT NULL,
	"verified_by" uuid NOT NULL,
	"verified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "form_records" ADD COLUMN "submitted_by" uuid;--> statement-breakpoint
ALTER TABLE "form_records" ADD COLUMN "submitted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "form_records" ADD COLUMN "verified_by" uuid;--> statement-breakpoint
ALTER TABLE "form_records" ADD COLUMN "verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "form_records" ADD COLUMN "locked_by" uuid;--> statement-breakpoint
ALTER TABLE "form_records" ADD COLUMN "locked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "form_records" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "form_records" ADD COLUMN "delete_reason" text;--> statement-breakpoint
ALTER TABLE "data_queries" ADD CONSTRAINT "data_queries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_queries" ADD CONSTRAINT "data_queries_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_queries" ADD CONSTRAINT "data_queries_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_queries" ADD CONSTRAINT "data_queries_record_id_form_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."form_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_queries" ADD CONSTRAINT "data_queries_raised_by_users_id_fk" FOREIGN KEY ("raised_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_queries" ADD CONSTRAINT "data_queries_answered_by_users_id_fk" FOREIGN KEY ("answered_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_queries" ADD CONSTRAINT "data_queries_closed_by_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_batches" ADD CONSTRAINT "import_batches_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_batches" ADD CONSTRAINT "import_batches_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_batches" ADD CONSTRAINT "import_batches_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_batches" ADD CONSTRAINT "import_batches_version_id_form_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."form_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_batches" ADD CONSTRAINT "import_batches_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "page_configs" ADD CONSTRAINT "page_configs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "page_configs" ADD CONSTRAINT "page_configs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "page_configs" ADD CONSTRAINT "page_configs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_value_versions" ADD CONSTRAINT "record_value_versions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_value_versions" ADD CONSTRAINT "record_value_versions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_value_versions" ADD CONSTRAINT "record_value_versions_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_value_versions" ADD CONSTRAINT "record_value_versions_record_id_form_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."form_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_value_versions" ADD CONSTRAINT "record_value_versions_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sdv_marks" ADD CONSTRAINT "sdv_marks_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sdv_marks" ADD CONSTRAINT "sdv_marks_record_id_form_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."form_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sdv_marks" ADD CONSTRAINT "sdv_marks_value_version_id_record_value_versions_id_fk" FOREIGN KEY ("value_version_id") REFERENCES "public"."record_value_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sdv_marks" ADD CONSTRAINT "sdv_marks_verified_by_users_id_fk" FOREIGN KEY ("verified_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_queries_record_idx" ON "data_queries" USING btree ("record_id","path");--> statement-breakpoint
CREATE INDEX "data_queries_tenant_project_status_idx" ON "data_queries" USING btree ("tenant_id","project_id","status");--> statement-breakpoint
CREATE INDEX "import_batches_tenant_project_idx" ON "import_batches" USING btree ("tenant_id","project_id","created_at");--> statement-breakpoint
CREATE INDEX "record_value_versions_record_path_idx" ON "record_value_versions" USING btree ("record_id","path","id");--> statement-breakpoint
CREATE INDEX "record_value_versions_tenant_patient_idx" ON "record_value_versions" USING btree ("tenant_id","patient_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sdv_marks_version_uq" ON "sdv_marks" USING btree ("value_version_id");--> statement-breakpoint
CREATE INDEX "sdv_marks_record_path_idx" ON "sdv_marks" USING btree ("record_id","path");--> statement-breakpoint
ALTER TABLE "form_records" ADD CONSTRAINT "form_records_submitted_by_users_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_records" ADD CONSTRAINT "form_records_verified_by_users_id_fk" FOREIGN KEY ("verified_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_records" ADD CONSTRAINT "form_records_locked_by_users_id_fk" FOREIGN KEY ("locked_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- The history of data points is evidence (21 CFR Part 11): rows are only ever added.
CREATE OR REPLACE FUNCTION record_value_versions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'record_value_versions is append-only' USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER record_value_versions_no_update_delete BEFORE UPDATE OR DELETE ON record_value_versions
  FOR EACH ROW EXECUTE FUNCTION record_value_versions_append_only();--> statement-breakpoint
CREATE TRIGGER record_value_versions_no_truncate BEFORE TRUNCATE ON record_value_versions
  FOR EACH STATEMENT EXECUTE FUNCTION record_value_versions_append_only();
