CREATE TABLE "areas" (
	"code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"parent_code" text,
	"level" smallint NOT NULL,
	"full_name" text NOT NULL,
	CONSTRAINT "areas_level_ck" CHECK ("areas"."level" between 1 and 3)
);
--> statement-breakpoint
CREATE TABLE "field_dict_options" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"dict_id" uuid NOT NULL,
	"tenant_id" uuid,
	"code" text NOT NULL,
	"label" text NOT NULL,
	"parent_code" text,
	"sort" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "field_dicts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"source" text,
	"built_in" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "field_dicts_tenant_code_uq" UNIQUE NULLS NOT DISTINCT("tenant_id","code")
);
--> statement-breakpoint
CREATE TABLE "form_drafts" (
	"tenant_id" uuid NOT NULL,
	"project_id" uuid PRIMARY KEY NOT NULL,
	"definition" jsonb NOT NULL,
	"revision" integer DEFAULT 0 NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "form_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"form_key" text NOT NULL,
	"instance" integer DEFAULT 1 NOT NULL,
	"version_id" uuid NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"row_version" integer DEFAULT 1 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "form_records_status_ck" CHECK ("form_records"."status" in ('draft', 'submitted', 'verified', 'locked')),
	CONSTRAINT "form_records_instance_ck" CHECK ("form_records"."instance" >= 1)
);
--> statement-breakpoint
CREATE TABLE "form_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"version_no" integer NOT NULL,
	"definition" jsonb NOT NULL,
	"changes" jsonb NOT NULL,
	"note" text,
	"published_by" uuid NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "field_dict_options" ADD CONSTRAINT "field_dict_options_dict_id_field_dicts_id_fk" FOREIGN KEY ("dict_id") REFERENCES "public"."field_dicts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "field_dict_options" ADD CONSTRAINT "field_dict_options_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "field_dicts" ADD CONSTRAINT "field_dicts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_drafts" ADD CONSTRAINT "form_drafts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_drafts" ADD CONSTRAINT "form_drafts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_drafts" ADD CONSTRAINT "form_drafts_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_records" ADD CONSTRAINT "form_records_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_records" ADD CONSTRAINT "form_records_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_records" ADD CONSTRAINT "form_records_version_id_form_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."form_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_records" ADD CONSTRAINT "form_records_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_records" ADD CONSTRAINT "form_records_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_versions" ADD CONSTRAINT "form_versions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_versions" ADD CONSTRAINT "form_versions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_versions" ADD CONSTRAINT "form_versions_published_by_users_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "areas_parent_idx" ON "areas" USING btree ("parent_code","code");--> statement-breakpoint
CREATE UNIQUE INDEX "field_dict_options_dict_code_uq" ON "field_dict_options" USING btree ("dict_id","code");--> statement-breakpoint
CREATE INDEX "field_dict_options_dict_sort_idx" ON "field_dict_options" USING btree ("dict_id","sort","code");--> statement-breakpoint
CREATE INDEX "field_dict_options_dict_parent_idx" ON "field_dict_options" USING btree ("dict_id","parent_code");--> statement-breakpoint
CREATE INDEX "field_dicts_code_idx" ON "field_dicts" USING btree ("code");--> statement-breakpoint
CREATE INDEX "form_drafts_tenant_idx" ON "form_drafts" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "form_records_patient_form_instance_uq" ON "form_records" USING btree ("tenant_id","patient_id","form_key","instance");--> statement-breakpoint
CREATE INDEX "form_records_project_form_idx" ON "form_records" USING btree ("tenant_id","project_id","form_key");--> statement-breakpoint
CREATE INDEX "form_records_version_idx" ON "form_records" USING btree ("version_id");--> statement-breakpoint
CREATE INDEX "form_records_data_gin" ON "form_records" USING gin ("data");--> statement-breakpoint
CREATE UNIQUE INDEX "form_versions_project_no_uq" ON "form_versions" USING btree ("project_id","version_no");--> statement-breakpoint
CREATE INDEX "form_versions_tenant_project_idx" ON "form_versions" USING btree ("tenant_id","project_id");--> statement-breakpoint
-- Hand-written (not generated): a published form version is immutable. UPDATE and DELETE of form_versions are refused
-- by the database itself, like the audit trail (0004); records keep the version they were entered with.
CREATE OR REPLACE FUNCTION form_versions_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'form_versions is immutable' USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER form_versions_no_update_delete BEFORE UPDATE OR DELETE ON form_versions
  FOR EACH ROW EXECUTE FUNCTION form_versions_immutable();
