CREATE TABLE "patients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"sub_project_id" uuid,
	"center_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"patient_no" text NOT NULL,
	"name" text NOT NULL,
	"gender" text,
	"birth_date" date,
	"hospital_no" text,
	"id_number_enc" text,
	"id_number_bi" text,
	"phone_enc" text,
	"phone_bi" text,
	"enrol_date" date,
	"status" text DEFAULT 'screening' NOT NULL,
	"row_version" integer DEFAULT 1 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	"delete_reason" text,
	CONSTRAINT "patients_status_ck" CHECK ("patients"."status" in ('screening', 'enrolled', 'withdrawn', 'completed', 'deceased')),
	CONSTRAINT "patients_gender_ck" CHECK ("patients"."gender" is null or "patients"."gender" in ('0', '1', '2', '9'))
);
--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_sub_project_id_projects_id_fk" FOREIGN KEY ("sub_project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "patients_project_no_uq" ON "patients" USING btree ("project_id","patient_no");--> statement-breakpoint
CREATE UNIQUE INDEX "patients_project_seq_uq" ON "patients" USING btree ("project_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "patients_project_id_number_uq" ON "patients" USING btree ("project_id","id_number_bi") WHERE "patients"."deleted_at" is null and "patients"."id_number_bi" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "patients_project_hospital_no_uq" ON "patients" USING btree ("project_id","hospital_no") WHERE "patients"."deleted_at" is null and "patients"."hospital_no" is not null;--> statement-breakpoint
CREATE INDEX "patients_tenant_project_center_idx" ON "patients" USING btree ("tenant_id","project_id","center_id");--> statement-breakpoint
CREATE INDEX "patients_sub_project_idx" ON "patients" USING btree ("sub_project_id");--> statement-breakpoint
ALTER TABLE "form_records" ADD CONSTRAINT "form_records_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;